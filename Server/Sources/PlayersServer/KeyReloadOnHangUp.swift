import Logging
import ServiceLifecycle
import SyncServerAuth
import UnixSignals

/// Under `--auth jwt`: SIGHUP reads `--jwt-key-file` again (a key set
/// rotated), logging the outcome; a file that cannot be used leaves the
/// keys in use. Without a verifier, it only waits for the shutdown.
struct KeyReloadOnHangUp: Service {
    let verifier: TokenVerifier?
    /// Trapped before the server listens: a SIGHUP that came first would
    /// otherwise end the process.
    let hangUps: UnixSignalsSequence?
    let logger: Logger

    /// Traps SIGHUP at once when there is a verifier.
    init(verifier: TokenVerifier?, logger: Logger) async {
        self.verifier = verifier
        self.logger = logger
        hangUps = verifier == nil ? nil : await UnixSignalsSequence(trapping: .sighup)
    }

    func run() async throws {
        guard let verifier, let hangUps else {
            try? await gracefulShutdown()
            return
        }
        for await _ in hangUps.cancelOnGracefulShutdown() {
            do {
                try await verifier.reloadKeys()
                logger.notice("Read the JWT key file again.", metadata: ["file": "\(verifier.keyFile)", "kind": "\(verifier.keyKind.rawValue)"])
            } catch {
                logger.error("Kept the JWT keys in use: \(error)")
            }
        }
    }
}
