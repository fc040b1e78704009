import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { CodeIndexService } from './code-index-service'

type CodeIndexChannels =
  'codeindex:status' | 'codeindex:rebuild' | 'codeindex:clear' | 'codeindex:cancel' | 'codeindex:resume'

/** The index status, rebuild, clear, cancel and resume of the open workspace. */
export function createCodeIndexHandlers(deps: {
  service: CodeIndexService
  currentWorkspace: () => string | null
}): Pick<Handlers, CodeIndexChannels> {
  const root = (): string => {
    const current = deps.currentWorkspace()
    if (!current) throw new UserFacingError('no_workspace', 'Open a folder first: the index belongs to a workspace.')
    return current
  }
  return {
    'codeindex:status': async () => deps.service.status(deps.currentWorkspace()),
    'codeindex:rebuild': async () => deps.service.rebuild(root()),
    'codeindex:clear': async () => deps.service.clear(root()),
    'codeindex:cancel': async () => deps.service.cancel(root()),
    'codeindex:resume': async () => deps.service.resume(root())
  }
}
