@testable import PlistCodecs
@testable import SettingsStore

/// What the store hands the XML reader for a big document's second half: a real second
/// thread. Counts the threads started, so a test can tell the halves were read at once.
final class SecondThreads {
    private(set) var started = 0

    func run(_ work: @escaping () -> Result<XMLReader.SecondHalf, PlistError>)
        -> () -> Result<XMLReader.SecondHalf, PlistError>
    {
        started += 1
        let thread = Background(work)
        return { thread.join() }
    }
}
