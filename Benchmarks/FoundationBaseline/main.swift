// The Foundation baseline: what a Swift program using PropertyListSerialization does to
// read one key of a domain file, or to set one key and write the file back.
//   foundation-baseline read FILE KEY
//   foundation-baseline write FILE KEY VALUE
import Foundation

let args = CommandLine.arguments
let url = URL(fileURLWithPath: args[2])
var format = PropertyListSerialization.PropertyListFormat.xml
let data = try Data(contentsOf: url)
guard var dict = try PropertyListSerialization.propertyList(from: data, options: [], format: &format) as? [String: Any]
else {
    fatalError("not a dictionary")
}
if args[1] == "read" {
    print(dict[args[3]] ?? "missing")
} else {
    dict[args[3]] = args[4]
    let out = try PropertyListSerialization.data(fromPropertyList: dict, format: format, options: 0)
    try out.write(to: url, options: .atomic)
}
