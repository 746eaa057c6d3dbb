// A stand-in for a Swift app: reads and writes settings through Foundation's
// UserDefaults, so the tests can show that it and `settings` share files.
//
//   InteropProbe get SUITE KEY          prints "<type> <value>" or "missing"
//   InteropProbe set SUITE KEY TYPE V   TYPE: bool int double float string data date array dict url
//                                       (a url V that starts with / is a file path)
//   InteropProbe get-url SUITE KEY      prints url(forKey:)'s absolute string, or "nil"
//   InteropProbe get-float SUITE KEY    prints float(forKey:) and double(forKey:)
//   InteropProbe set-standard KEY INT   through UserDefaults.standard
import Foundation

let args = CommandLine.arguments
// `InteropProbe set-standard KEY INT`: through UserDefaults.standard, the app's own domain.
if args.count == 4, args[1] == "set-standard" {
    UserDefaults.standard.set(Int(args[3])!, forKey: args[2])
    UserDefaults.standard.synchronize()
    exit(0)
}
guard args.count >= 4, let defaults = UserDefaults(suiteName: args[2]) else {
    FileHandle.standardError.write("usage: InteropProbe get|set SUITE KEY [TYPE VALUE]\n".data(using: .utf8)!)
    exit(2)
}
let key = args[3]

func describe(_ value: Any) -> String {
    switch value {
    case let b as Bool
    where type(of: value) == type(of: NSNumber(value: true)) && String(cString: (value as! NSNumber).objCType) == "c":
        return "bool \(b)"
    case let n as NSNumber:
        let code = String(cString: n.objCType)
        if code == "d" || code == "f" { return "double \(n.doubleValue)" }
        if code == "c" || code == "B" { return "bool \(n.boolValue)" }
        return "int \(n.int64Value)"
    case let s as String: return "string \(s)"
    case let d as Data: return "data \(d.map { String(format: "%02x", $0) }.joined())"
    case let d as Date: return "date \(d.timeIntervalSinceReferenceDate)"
    case let a as [Any]: return "array [" + a.map(describe).joined(separator: ", ") + "]"
    case let d as [String: Any]:
        return "dict {" + d.keys.sorted().map { "\($0): \(describe(d[$0]!))" }.joined(separator: ", ") + "}"
    default: return "unknown \(value)"
    }
}

switch args[1] {
case "get":
    if let value = defaults.object(forKey: key) { print(describe(value)) } else { print("missing") }
case "get-url":
    print(defaults.url(forKey: key)?.absoluteString ?? "nil")
case "get-float":
    print(defaults.float(forKey: key), defaults.double(forKey: key))
case "set":
    let (type, text) = (args[4], args[5])
    switch type {
    case "bool": defaults.set(text == "true", forKey: key)
    case "int": defaults.set(Int(text)!, forKey: key)
    case "double": defaults.set(Double(text)!, forKey: key)
    case "float": defaults.set(Float(text)!, forKey: key)
    case "url": defaults.set(text.hasPrefix("/") ? URL(fileURLWithPath: text) : URL(string: text)!, forKey: key)
    case "string": defaults.set(text, forKey: key)
    case "data": defaults.set(Data(text.utf8), forKey: key)
    case "date": defaults.set(Date(timeIntervalSinceReferenceDate: Double(text)!), forKey: key)
    case "array": defaults.set(text.split(separator: ",").map(String.init), forKey: key)
    case "dict": defaults.set(["inner": text, "n": 1] as [String: Any], forKey: key)
    default: exit(2)
    }
    defaults.synchronize()
default:
    exit(2)
}
