import Dispatch

/// Where a ``ValueObservation`` delivers its values.
public enum ValueObservationScheduler: Sendable {
    /// The initial value is delivered synchronously, in `start`, before it
    /// returns; later values on a serial queue of the observation (there is
    /// no main queue to rely on in a command-line program on Linux).
    case immediate
    /// All values are delivered asynchronously on `queue`, in order.
    case async(onQueue: DispatchQueue)

    /// Asynchronously, on a new serial queue of the observation (default).
    public static var task: ValueObservationScheduler {
        .async(onQueue: DispatchQueue(label: "CipherDB.ValueObservation"))
    }
}
