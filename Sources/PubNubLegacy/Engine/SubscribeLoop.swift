// Namespace of the subscribe loop; its decisions live in `SubscribeLoop+StateMachine.swift`.
enum SubscribeLoop {}
