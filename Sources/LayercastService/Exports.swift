// What a scene author's code sees through `import Layercast`: Foundation (CGPoint, CGSize, CGRect,
// CGFloat, Date …, as `import UIKit` or `import QuartzCore` brings them on iOS), the Core Animation model
// (CALayer, CABasicAnimation, CATransaction, SceneContext …), the `Scene` protocol and the
// types it speaks (SceneInfo, SceneEvent, Tapper, TapOutcome, DragPhase), JSON values for event
// data, and our shipped scenes (`SceneCatalog.all`) to serve next to one's own; of the wire, only
// what the scene API names: a command's answer (`APIError` and its `ErrorCode`), a refused tap
// (`SceneController.admitTap`'s `ProtocolError`) and a command body's fields (`FieldReader`).
@_exported import Foundation
@_exported import LayercastEngine
@_exported import LayercastJSON
@_exported import LayercastSceneKit
@_exported import LayercastScenes
@_exported import LayercastUIKit  // UIView, UIView.animate, UIColor… (docs/writing-a-scene.md §3, "UIKit code")
@_exported import struct LayercastWire.APIError
@_exported import enum LayercastWire.ErrorCode
@_exported import struct LayercastWire.FieldReader
@_exported import struct LayercastWire.ProtocolError
