import { z } from 'zod'
import { SandboxStatus } from '../sandbox/status'
import { request } from './define'

export const sandboxRequests = {
  /** Whether commands of sandboxed modes can run in the OS sandbox here (checked again on each call). */
  'sandbox:status': request(z.object({}).strict(), SandboxStatus)
}
