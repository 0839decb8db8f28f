/// Runs a ``ValueObservation`` of a database that does not change (a
/// read-only database, a ``DatabaseSnapshot``): one fetch, one value.
final class ValueObservationSingleFetch<Reducer: ValueReducer>: ValueObservationRunning {
    private let delivery: ValueObservationDelivery<Reducer>
    private let reader: any DatabaseReader

    init(observation: ValueObservation<Reducer>, reader: any DatabaseReader, scheduler: some ValueObservationScheduler,
         onError: @escaping @Sendable (any Error) -> Void, onChange: @escaping @Sendable (Reducer.Value) -> Void)
    {
        delivery = ValueObservationDelivery(observation: observation, scheduler: scheduler, onError: onError, onChange: onChange)
        self.reader = reader
    }

    func start() {
        if delivery.isImmediate {
            do {
                if let value = try reader.read({ db in try delivery.reduce(delivery.fetcher.fetch(db)) }) {
                    delivery.deliver(value, isInitial: true)
                }
            } catch {
                delivery.fail(error, isInitial: true)
            }
        } else {
            reader.asyncRead { result in
                do {
                    let db = try result.get()
                    if let value = try self.delivery.reduce(self.delivery.fetcher.fetch(db)) {
                        self.delivery.deliver(value, isInitial: true)
                    }
                } catch {
                    self.delivery.fail(error, isInitial: true)
                }
            }
        }
    }

    func cancel() {
        if delivery.markCancelled() {
            delivery.events.didCancel.forEach { $0() }
        }
    }
}
