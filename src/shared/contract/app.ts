import { z } from 'zod'
import { request } from './define'

export const appRequests = {
  'app:info': request(
    z.object({}).strict(),
    z.object({
      version: z.string(),
      transport: z.enum(['electron', 'web']),
      platform: z.string(),
      dataDir: z.string()
    })
  )
}

export const appEvents = {
  /** Something the user must know that belongs to no task (a bad settings file, a warning). */
  'app:notice': z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string() })
}
