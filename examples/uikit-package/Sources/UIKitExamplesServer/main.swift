import Layercast
import LayercastScenes
import UIKitExamples

// Layercast's scenes, then the three UIKit ports; `uikit-examples-server serve --port 8080` serves them all.
LayercastCommand.main(scenes: SceneCatalog.all + [LikeButtonScene.self, RouletteScene.self, FlipCardsScene.self])
