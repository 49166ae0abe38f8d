/// A line a worker process writes to its standard output for the parent (`--workers`): a
/// progress sample each second, then its clients' measurements (one per population) once they
/// have closed.
public enum WorkerMessage: Sendable, Codable {
    case progress(ProgressSample)
    case result([LoadStats])
}
