/// How a wait of ``StoreChangeNotifier/wait(after:until:)`` ended.
public enum StoreChangeWait: Sendable, Equatable {
    /// The counter moved past the version waited after, or the notifier
    /// lost track of it (its listening connection dropped): read again.
    case changed
    /// The deadline passed first.
    case timedOut
    /// The server is shutting down (``StoreChangeNotifier/releaseAll()``),
    /// or the waiting task was cancelled: answer now.
    case released
}
