// What a scene author's code sees through `import Layercast`: Foundation (CGPoint, CGSize, CGRect,
// CGFloat, Date …, as `import UIKit` or `import QuartzCore` brings them on iOS), the Core Animation model
// (CALayer, CABasicAnimation, CATransaction, SceneContext …), the scene API (LayercastSceneAPI: the
// `Scene` and `SceneController` protocols and every type they speak — SceneInfo, SceneEvent, Tapper,
// TapOutcome, DragPhase, options, assets, rounds, awards, and the refusals `ErrorCode`, `APIError`,
// `ProtocolError` and `FieldReader`), JSON values for event data, and UIKit's spellings. Our shipped
// scenes are not here: they are product `LayercastScenes` (`import LayercastScenes`, `SceneCatalog.all`).
@_exported import Foundation
@_exported import LayercastEngine
@_exported import LayercastJSON
@_exported import LayercastSceneAPI
@_exported import LayercastUIKit  // UIView, UIView.animate, UIColor… (docs/writing-a-scene.md §3, "UIKit code")
