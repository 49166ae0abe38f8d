import CardFlip
import Layercast
import LayercastScenes

// Layercast's six scenes, then ours; `card-flip-server serve --port 8080` serves them all.
LayercastCommand.main(scenes: SceneCatalog.all + [CardFlipScene.self])
