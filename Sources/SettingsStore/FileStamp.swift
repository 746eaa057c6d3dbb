import PlistCodecs
import PlistModel
/// What `DomainStore.stamp(at:)` compares: a new inode for an atomic save, new times and
/// size for a rewrite in place.
package struct FileStamp: Sendable, Equatable {
    package let size: Int
    let inode: UInt64, device: UInt64, modified: Int64, changed: Int64
}

extension FileStamp {
    /// The stamp as text, to keep in a file and compare with a later one.
    package var text: String { "\(size):\(device):\(inode):\(modified):\(changed)" }

    init(_ status: FileSystem.Status) {
        self.init(
            size: status.size, inode: status.inode, device: status.device,
            modified: status.modifiedNanoseconds, changed: status.changedNanoseconds)
    }
}
