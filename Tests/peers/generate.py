#!/usr/bin/env python3
"""Writes the repetitive part of the peer suites: the value families of Defaults (each
runs the same twelve tests on its own type) and SwiftyUserDefaults' spec (the same groups
of cases on each type). Each test calls a generic check in DefaultsShapes.swift or
SwiftySpec.swift; what is generated is only the per-type declarations the checks need
(keys declared on SettingsKeys, for access by name) and one XCTest method per peer test,
named as the peer names it. Run after editing the tables: python3 Tests/peers/generate.py"""
import pathlib

HERE = pathlib.Path(__file__).parent / "Tests" / "PeerSuites"
SHAPES = ["key", "optionalKey", "arrayKey", "arrayOptionalKey", "nestedArrayKey", "arrayDictionaryKey",
          "dictionaryKey", "dictionaryOptionalKey", "dictionaryArrayKey"]
# (Defaults' test file, Swift type, fixture, other value, extra shapes)
FAMILIES = [
    ("DefaultsCodableTests", "Unicorn", "Unicorn(isUnicorn: true)", "Unicorn(isUnicorn: false)", []),
    ("DefaultsCodableEnumTests", "FixtureCodableEnum", ".tenMinutes", ".halfHour", []),
    ("DefaultsEnumTests", "FixtureEnum", ".tenMinutes", ".oneHour", []),
    ("DefaultsCollectionTests", "Bag<String>", 'Bag(items: ["Juice", "Apple", "Banana"])',
     'Bag(items: ["Hello", "World!"])', []),
    ("DefaultsCollectionCustomElementTests", "Bag<Item>", 'Bag(items: [Item(name: "Juice", count: 1)])',
     'Bag(items: [Item(name: "Apple", count: 2), Item(name: "Banana", count: 3)])', []),
    ("DefaultsSetAlgebraTests", "DefaultsSetAlgebra<Int>", "DefaultsSetAlgebra([0, 1])", "DefaultsSetAlgebra([2])", []),
    ("DefaultsSetAlgebraCustomElementTests", "DefaultsSetAlgebra<Item>",
     'DefaultsSetAlgebra([Item(name: "Juice", count: 1)])', 'DefaultsSetAlgebra([Item(name: "Apple", count: 2)])', []),
    ("DefaultsAnySeriliazableTests", "PlistValue", "123", '["Hello": "World!", "numbers": [1, 2.5, true]]', ["observe"]),
    ("DefaultsCustomBridgeTests", "User", 'User(username: "hank121314", password: "123456")',
     'User(username: "sindresorhus", password: "123456789")', []),
]


def camel(name):
    return name[0].upper() + name[1:]


def family(test_file, swift_type, a, b, extra):
    stem = test_file.removeprefix("Defaults").removesuffix("Tests")
    prefix = stem[0].lower() + stem[1:]
    out = [f"// {test_file}.swift: the twelve tests of a Defaults value family, on `{swift_type}`.",
           "extension SettingsKeys {",
           f'    static let {prefix}Type = SettingsKey<{swift_type}>("{prefix}", default: {a})',
           f'    static let {prefix}ArrayType = SettingsKey<[{swift_type}]>("{prefix}Array", default: [{a}])',
           f'    static let {prefix}DictionaryType = SettingsKey<[String: {swift_type}]>("{prefix}Dictionary", default: ["0": {a}])',
           "}", "",
           f"final class {test_file}: PeerTestCase {{",
           f"    let a: {swift_type} = {a}",
           f"    let b: {swift_type} = {b}", ""]
    for shape in SHAPES:
        out.append(f"    func test{camel(shape)}() {{ DefaultsShapes.{shape}(settings, suite, a, b) }}")
    out.append(f"    func testType() {{ DefaultsShapes.type(settings, suite, \\.{prefix}Type, a, b) }}")
    out.append(f"    func testArrayType() {{ DefaultsShapes.arrayType(settings, suite, \\.{prefix}ArrayType, a, b) }}")
    out.append(f"    func testDictionaryType() {{ DefaultsShapes.dictionaryType(settings, suite, \\.{prefix}DictionaryType, a, b) }}")
    if "observe" in extra:
        out.append("    func testObserveKeyCombine() { DefaultsShapes.observe(settings, a, b) }")
        out.append("    func testObserveOptionalKeyCombine() { DefaultsShapes.observeOptional(settings, a, b) }")
    out.append("}")
    return "\n".join(out)


# SwiftyUserDefaults' DefaultsSerializableSpec, per type: (spec file, Swift type, name,
# default value, custom value, launch-argument strings and the values they read as)
SWIFTY = [
    ("Defaults+Bool", "Bool", "bool", "false", "true",
     [("YES", "true"), ("yes", "true"), ("TRUE", "true"), ("true", "true"), ("Y", "true"), ("y", "true"),
      ("T", "true"), ("t", "true"), ("1", "true"), ("NO", "false"), ("no", "false"), ("FALSE", "false"),
      ("false", "false"), ("N", "false"), ("n", "false"), ("f", "false"), ("F", "false"), ("0", "false")]),
    ("Defaults+Data", "Data", "data", 'Data("default data".utf8)', 'Data("custom data".utf8)', []),
    ("Defaults+Date", "Date", "date", "Date(timeIntervalSince1970: 1_600_000_000.25)", "Date(timeIntervalSince1970: 50)", []),
    ("Defaults+Dictionary", "[String: PlistValue]", "dictionary", '["c": "d", "e": 1]', '["a": "b"]', []),
    ("Defaults+Double", "Double", "double", "1.0", "2.0",
     [("0", "0.0"), ("1", "1.0"), ("2", "2.0"), ("31.0", "31.0")]),
    ("Defaults+Int", "Int", "int", "1", "2", [("0", "0"), ("1", "1"), ("2", "2"), ("111111", "111111")]),
    ("Defaults+String", "String", "string", '"default value"', '"custom value"',
     [("0.0", '"0.0"'), ("test", '"test"')]),
    ("Defaults+URL", "URL", "url", 'URL(string: "https://github.com")!', 'URL(string: "https://swift.org")!', []),
    ("Defaults+BestFroggiesEnum", "BestFroggiesEnum", "froggies", ".andy", ".dandy",
     [("Andy", ".andy"), ("Dandy", ".dandy"), ("Nobody", "nil")]),
    ("Defaults+FrogCodable", "FrogCodable", "frogCodable", 'FrogCodable(name: "default")', 'FrogCodable(name: "custom")', []),
    ("Defaults+FrogCustomSerializable", "FrogCustomSerializable", "frogCustom",
     'FrogCustomSerializable(name: "default")', 'FrogCustomSerializable(name: "custom")', []),
]


def swifty(spec_file, swift_type, name, default, custom, arguments):
    cls = "Swifty" + camel(name) + "Spec"
    out = [f"// SwiftyUserDefaults' {spec_file}.swift: DefaultsSerializableSpec on `{swift_type}`.",
           "extension SettingsKeys {",
           f'    static let {name}Value = SettingsKey<{swift_type}>("test", default: {default})',
           f'    static let {name}Array = SettingsKey<[{swift_type}]>("test", default: [{default}])',
           f'    static let {name}OptionalValue = SettingsKey<{swift_type}?>("test", default: {default})',
           f'    static let {name}OptionalArray = SettingsKey<[{swift_type}]?>("test", default: [{default}])',
           f'    static let {name}NilValue = SettingsKey<{swift_type}?>("test")',
           f'    static let {name}NilArray = SettingsKey<[{swift_type}]?>("test")',
           "}", "",
           f"final class {cls}: PeerTestCase {{",
           f"    let paths = SwiftySpec.Paths<{swift_type}>(",
           f"        value: \\.{name}Value, array: \\.{name}Array, optionalValue: \\.{name}OptionalValue,",
           f"        optionalArray: \\.{name}OptionalArray, nilValue: \\.{name}NilValue, nilArray: \\.{name}NilArray)",
           f"    let defaultValue: {swift_type} = {default}",
           f"    let customValue: {swift_type} = {custom}", "",
           "    func testKeyDefaultValue() { SwiftySpec.keyDefaultValue(settings, paths, defaultValue, customValue) }",
           "    func testKeyDefaultOptionalValue() {",
           "        SwiftySpec.keyDefaultOptionalValue(settings, paths, defaultValue, customValue)",
           "    }",
           "    func testKeyNilOptionalValue() { SwiftySpec.keyNilOptionalValue(settings, paths, defaultValue, customValue) }",
           "    func testObservingOptionalKeyWithoutDefault() {",
           "        SwiftySpec.observingNilOptional(settings, paths, defaultValue, customValue)",
           "    }",
           "    func testObservingOptionalKeyWithDefault() {",
           "        SwiftySpec.observingDefaultOptional(settings, paths, defaultValue, customValue)",
           "    }",
           "    func testObservingNonOptionalKey() { SwiftySpec.observingValue(settings, paths, defaultValue, customValue) }"]
    if arguments:
        rows = ", ".join(f'("{text}", {value})' for text, value in arguments)
        out += ["    func testPlistRegisteredValues() {",
                f"        let rows: [(String, {swift_type}?)] = [{rows}]",
                "        SwiftySpec.launchArguments(folder, rows, defaultValue)",
                "    }"]
    out.append("}")
    return "\n".join(out)


header = "// Generated by Tests/peers/generate.py; edit the tables there.\nimport Foundation\nimport SettingsKit\nimport XCTest\n\n"
(HERE / "DefaultsFamilies.swift").write_text(header + "\n\n".join(family(*f) for f in FAMILIES) + "\n")
(HERE / "SwiftySpecs.swift").write_text(header + "\n\n".join(swifty(*s) for s in SWIFTY) + "\n")

# The house format (.swift-format at the repository's root), so CI's lint passes.
import subprocess
subprocess.run(["swift", "format", "format", "-i", str(HERE / "DefaultsFamilies.swift"), str(HERE / "SwiftySpecs.swift")],
               check=True)
