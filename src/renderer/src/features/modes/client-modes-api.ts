import type { ModusClient } from '../../../../shared/contract'
import type { ModesView } from '../../../../shared/contract/modes'
import { unwrap } from '../../client/unwrap'
import { toModesListing, type ModesApi, type ModesListing } from './modes-api'

/**
 * The mode editor's API over the typed client (changes made elsewhere arrive through the event
 * router as `modes:changed`). Trust belongs to the workspace domain; the caller
 * says how to read it. Unknown counts as untrusted, the safe reading.
 */
export function createModesApi(client: ModusClient, isProjectTrusted: () => boolean = () => false): ModesApi {
  const toListing = (view: ModesView): ModesListing => toModesListing(view, isProjectTrusted())
  return {
    list: async () => toListing(unwrap(await client.request('modes:list', {}))),
    save: async (mode, scope, previousSlug) =>
      toListing(
        unwrap(
          await client.request('modes:save', {
            mode: mode,
            scope,
            ...(previousSlug && previousSlug !== mode.slug ? { previousSlug } : {})
          })
        )
      ),
    remove: async (slug, scope) => toListing(unwrap(await client.request('modes:delete', { slug, scope }))),
    resetBuiltIn: async (slug, scope) => toListing(unwrap(await client.request('modes:resetBuiltIn', { slug, scope }))),
    async importText(text, format, scope) {
      const outcome = unwrap(await client.request('modes:import', { text, format, scope }))
      return { listing: toListing(outcome.view), imported: outcome.imported, warnings: outcome.warnings }
    },
    async exportMode(slug, format) {
      const file = unwrap(await client.request('modes:export', { ...(slug ? { slug } : {}), format }))
      return { fileName: file.fileName, content: file.yaml }
    },
    sandboxStatus: async () => unwrap(await client.request('sandbox:status', {})),
    previewPrompt: async (slug) => unwrap(await client.request('prompt:preview', { mode: slug })),
    async testRegex(pattern) {
      const result = await client.request('modes:testRegex', { fileRegex: pattern, limit: 500 })
      return result.ok ? { ok: true, ...result.value } : { ok: false, error: result.error.message }
    }
  }
}
