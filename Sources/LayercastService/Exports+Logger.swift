// `SceneServices` names swift-log's `Logger` (`services.logger`, `SceneServices(awarding:rounds:logger:)`):
// re-exported, so that a scene package that imports `Layercast` alone can name it, as its tests do to
// make a controller's services (examples/api-coverage).
@_exported import struct Logging.Logger
