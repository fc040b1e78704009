import { UserFacingError } from '../../../shared/contract/dispatch'
import type { Handlers } from '../../../shared/contract'
import { ModeStoreError, type ModeStore } from './mode-store'

type ModesChannels =
  | 'modes:list'
  | 'modes:save'
  | 'modes:delete'
  | 'modes:resetBuiltIn'
  | 'modes:import'
  | 'modes:export'
  | 'modes:testRegex'

/** Store errors reach the renderer with their code (invalid_mode, file_broken, not_found, …). */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ModeStoreError) throw new UserFacingError(error.code, error.message)
    throw error
  }
}

/** Handlers for the modes domain; `modes:changed` is emitted through `store.onChange` by the wiring. */
export function createModeHandlers(store: ModeStore): Pick<Handlers, ModesChannels> {
  return {
    'modes:list': () => guarded(() => store.list()),
    'modes:save': ({ mode, scope, previousSlug }) => guarded(() => store.save(mode, scope, previousSlug)),
    'modes:delete': ({ slug, scope }) => guarded(() => store.delete(slug, scope)),
    'modes:resetBuiltIn': ({ slug, scope }) => guarded(() => store.resetBuiltIn(slug, scope)),
    'modes:import': ({ text, scope, format }) =>
      guarded(async () => {
        const { snapshot, imported, warnings } = await store.import(text, scope, format)
        return { view: snapshot, imported, warnings }
      }),
    'modes:export': ({ slug, format }) => guarded(() => store.export(slug, format)),
    'modes:testRegex': ({ fileRegex, limit }) => guarded(() => store.testRegex(fileRegex, limit))
  }
}
