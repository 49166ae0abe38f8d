import Layercast
import LayercastScenes

// Our `layercast`: the service with the scenes we ship.
LayercastCommand.main(scenes: SceneCatalog.all)
