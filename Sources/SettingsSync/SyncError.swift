import PlistCodecs
import SettingsStore

/// What can stop a sync, one case per message; each says what was left as it was.
public enum SyncError: Error, Sendable {
    /// `sync` before `sync init`.
    case notSyncing
    /// `sync init` on a machine that already syncs.
    case alreadySyncing(folder: String)
    /// git is not installed, or could not be started.
    case gitMissing(String)
    /// The remote could not be reached (fetch, ls-remote): git's own reason.
    case unreachable(remote: String, reason: String)
    /// `sync init` could not reach the remote (`ls-remote`, fetch): nothing was set up.
    case cannotSetUp(remote: String, reason: String)
    /// `sync init` or `sync remote` was given a remote no git could use (empty, or holding
    /// a control character): nothing was changed.
    case unusableRemote(remote: String, reason: String)
    /// The push failed for a reason other than another machine's push.
    case pushFailed(remote: String, reason: String)
    /// git could not tell whether the remote's history still holds the commit this
    /// machine last agreed with (`merge-base --is-ancestor` failed): merging either way
    /// could delete what no machine removed.
    case historyUnknown(reason: String)
    /// Other machines kept pushing first, round after round.
    case remoteKeptMoving(remote: String, attempts: Int)
    /// An object of the sync's repository that a merge needs cannot be read (a disk error,
    /// power lost before git's object reached the disk): read as "no file", it would be a
    /// side of the merge with everything removed. (The object's id, and what it is.)
    case objectMissing(id: String, what: String)
    /// A commit or tree of the repository is bigger than a round reads (`limit` bytes).
    case objectTooBig(id: String, what: String, limit: Int)
    /// The remote's branch is gone, and its HEAD names no branch to follow.
    case branchGone(branch: String, remote: String, head: String?)
    /// The round pushed and changed live settings, then could not move its base (the
    /// reason): its record stays, and the next round finishes it.
    case unfinished(reason: String)
    /// A git process ran past its time limit and was ended.
    case timedOut(what: String, seconds: Double)
    /// SIGINT or SIGTERM ended the round (`sync --watch`).
    case cancelled
    /// A local git step failed (the clone's own repository).
    case git(command: String, reason: String)
    /// Run as root on a folder another user owns: git would leave files they cannot write.
    case otherOwner(path: String, uid: UInt32)
    /// The live folder or the sync's own files could not be read or written.
    case store(StoreError)
    /// One of the sync's own files, or its repository, is not one it could have made (a
    /// link, a FIFO, another user's file), or could not be read or written.
    /// (The state-file door's message, and whether it was a refusal rather than a failure.)
    case stateFile(message: String, refused: Bool)

    /// One line for a user.
    public var message: String {
        switch self {
        case .notSyncing: "this machine does not sync yet: settings sync init REMOTE"
        case .alreadySyncing(let folder): "\(folder) exists: this machine already syncs (settings sync leave ends it)"
        case .gitMissing(let why): "sync needs git, which could not be run (\(why)): install git"
        case let .unreachable(remote, reason):
            "cannot reach \(remote) (\(reason)): the live settings are unchanged; the next sync carries them"
        case let .cannotSetUp(remote, reason):
            "cannot reach \(remote) (\(reason)): nothing was set up; this machine does not sync yet"
        case let .unusableRemote(remote, reason):
            "'\(remote)' cannot be a remote (\(reason)): nothing was changed"
        case let .pushFailed(remote, reason):
            "cannot push to \(remote) (\(reason)): the live settings are unchanged; the next sync tries again"
        case .historyUnknown(let reason):
            "cannot tell whether the remote's history was rewritten (git merge-base: \(reason)): "
                + "the live settings are unchanged; the next sync tries again"
        case let .remoteKeptMoving(remote, attempts):
            "\(remote) took another machine's push \(attempts) times while this one merged: "
                + "the live settings are unchanged; the next sync tries again"
        case let .objectMissing(id, what):
            "the sync's repository cannot read object \(id) (\(what)): the live settings are unchanged; "
                + "git fsck in the sync's repository tells what is lost"
        case let .objectTooBig(id, what, limit):
            "the repository's object \(id) (\(what)) is larger than \(limit >> 20) MiB, the most a round reads: "
                + "the live settings are unchanged"
        case let .branchGone(branch, remote, head):
            "\(remote) has no branch \(CanonicalText.escapedLine(branch)) any more, and its HEAD "
                + (head.map { "names \(CanonicalText.escapedLine($0)), which does not exist there" }
                    ?? "names no branch")
                + ": the live settings are unchanged; point the remote's HEAD at the branch to follow"
        case .unfinished(let reason):
            "the round pushed and changed settings here, then stopped (\(reason)): the next sync finishes it"
        case let .timedOut(what, seconds):
            "git \(what) took longer than \(Self.seconds(seconds)) and was stopped "
                + "(SETTINGS_SYNC_TIMEOUT): the live settings are unchanged; the next sync tries again"
        case .cancelled: "stopped: the next sync finishes what this one began"
        case let .git(command, reason): "git \(command) failed in the sync's repository (\(reason))"
        case let .otherOwner(path, uid):
            "\(path) belongs to user \(uid): run settings sync as that user "
                + "(as root, git would leave files there they cannot write); nothing was changed"
        case .store(let error): error.message
        case .stateFile(let message, _): message
        }
    }

    /// The exit status: 1 when there is nothing to sync with, 2 for a remote that is no
    /// URL, 4 for everything outside this program (git, the remote, the disk), as the man
    /// page's EXIT STATUS says.
    public var status: Int32 {
        switch self {
        case .notSyncing, .alreadySyncing: 1
        // A remote no git could use is a bad argument.
        case .unusableRemote: 2
        // A refused file is one of the unreadable kind, as a domain's would be.
        case .stateFile(_, refused: true): 3
        default: 4
        }
    }

    /// What failed, without what it left as it was: for `unfinished`.
    var reason: String {
        switch self {
        case let .git(command, reason): "git \(command): \(reason)"
        case let .timedOut(what, seconds): "git \(what) took longer than \(Self.seconds(seconds))"
        default: message
        }
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension SyncError {
    /// A failure of the state-file door (`StateFile`), with its own message.
    package init(_ error: StateFileError) { self = .stateFile(message: error.message, refused: error.isRefusal) }
}
