export {
  createCheckpointService,
  DEFAULT_CHECKPOINT_LIMITS,
  workspaceKey,
  type CheckpointService
} from './checkpoint-service'
export { withCommandCheckpoints } from './command-checkpoints'
export { restoreToCheckpoint, type RestoreSummary } from './restore'
export type {
  CheckpointLimits,
  CheckpointMarker,
  CommandCapture,
  FileVersionPair,
  WorkspaceCheckpoints
} from './workspace-checkpoints'
