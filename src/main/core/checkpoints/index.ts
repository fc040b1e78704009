export { createCheckpointService, DEFAULT_CHECKPOINT_LIMITS, workspaceKey, type CheckpointService } from './checkpoint-service'
export type { CheckpointLimits, CheckpointMarker, CommandCapture, FileVersionPair, WorkspaceCheckpoints } from './workspace-checkpoints'
