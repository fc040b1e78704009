import type { Handlers } from '../../../shared/contract'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { ListModelsInput, ProviderView, SettingsView } from '../../../shared/contract/settings'
import { toModelChoices } from '../../../shared/models'
import { PROVIDERS } from '../../../shared/providers/descriptors'
import { chooseBaseUrl } from '../providers/base-url'
import { ProviderError } from '../providers/errors'
import { listProviderModels } from '../providers/list-models'
import type { EventBus } from '../event-bus'
import {
  EMBEDDINGS_SECRET,
  resolveApiKey,
  resolveEmbeddingsKey,
  secretNameForProvider,
  type SecretStore
} from './secret-store'
import type { SettingsStore } from './settings-store'
import { checkProvider } from './check-provider'
import { findChromiumSync, noBrowserAdvice, type FoundChromium } from '../browser/find-chromium'

type SettingsChannels =
  | 'settings:get'
  | 'settings:saveProvider'
  | 'settings:testProvider'
  | 'settings:removeProvider'
  | 'settings:setActiveProvider'
  | 'settings:saveLimits'
  | 'settings:saveCommandRules'
  | 'settings:setTheme'
  | 'settings:saveEmbeddings'
  | 'settings:saveBrowser'
  | 'settings:saveMcp'
  | 'settings:listModels'

export interface SettingsHandlerDeps {
  settings: SettingsStore
  secrets: SecretStore
  bus?: EventBus
  env?: Record<string, string | undefined>
  /** How provider checks reach the network (tests may pass their own). */
  fetch?: typeof fetch
  /** The embeddings endpoint changed: the code index re-embeds with the new model. */
  onEmbeddingsChanged?: () => Promise<void>
  /** Which Chromium the browser tool would drive (default: the shared discovery, without extracting). */
  findBrowser?: () => FoundChromium | null
}

/** Settings as the renderer sees them: keys are never sent, only whether one exists and its last four characters. */
export function createSettingsHandlers(deps: SettingsHandlerDeps): Pick<Handlers, SettingsChannels> {
  const view = () => buildSettingsView(deps)
  const changed = async () => {
    const current = await view()
    deps.bus?.emit('settings:changed', current)
    return current
  }
  return {
    'settings:get': view,
    'settings:testProvider': (provider) =>
      checkProvider(provider, { secrets: deps.secrets, env: deps.env ?? process.env, fetch: deps.fetch }),
    async 'settings:saveProvider'({ apiKey, ...provider }) {
      await deps.settings.update((current) => {
        const others = current.providers.filter((p) => p.id !== provider.id)
        const existing = current.providers.find((p) => p.id === provider.id)
        const providers = existing
          ? current.providers.map((p) => (p.id === provider.id ? provider : p))
          : [...others, provider]
        return { ...current, providers, activeProviderId: current.activeProviderId ?? provider.id }
      })
      if (apiKey === '') await deps.secrets.delete(secretNameForProvider(provider.id))
      else if (apiKey !== undefined) await deps.secrets.set(secretNameForProvider(provider.id), apiKey)
      return changed()
    },
    async 'settings:removeProvider'({ id }) {
      requireProvider(deps.settings, id)
      await deps.settings.update((current) => {
        const providers = current.providers.filter((p) => p.id !== id)
        const activeProviderId = current.activeProviderId === id ? (providers[0]?.id ?? null) : current.activeProviderId
        return { ...current, providers, activeProviderId }
      })
      await deps.secrets.delete(secretNameForProvider(id))
      return changed()
    },
    async 'settings:setActiveProvider'({ id }) {
      requireProvider(deps.settings, id)
      await deps.settings.update((current) => ({ ...current, activeProviderId: id }))
      return changed()
    },
    async 'settings:saveLimits'(limits) {
      await deps.settings.update((current) => ({ ...current, policy: { ...current.policy, ...limits } }))
      return changed()
    },
    async 'settings:saveCommandRules'(commandRules) {
      await deps.settings.update((current) => ({ ...current, policy: { ...current.policy, commandRules } }))
      return changed()
    },
    async 'settings:setTheme'({ theme }) {
      await deps.settings.update((current) => ({ ...current, theme }))
      return changed()
    },
    async 'settings:listModels'(input) {
      const env = deps.env ?? process.env
      const apiKey = input.apiKey?.trim() || (await storedKeyFor(deps, input, env)) || ''
      try {
        const target = {
          kind: input.kind,
          baseUrl: chooseBaseUrl(input.kind, input.baseUrl, env),
          apiKey,
          label: PROVIDERS[input.kind].nameInMessages
        }
        const listed = await listProviderModels(target, { fetch: deps.fetch })
        return { models: toModelChoices(listed) }
      } catch (error) {
        if (error instanceof ProviderError) throw new UserFacingError(`provider_${error.kind}`, error.message)
        throw error
      }
    },
    async 'settings:saveEmbeddings'({ embeddings }) {
      if (embeddings === null) {
        await deps.settings.update((current) => ({ ...current, embeddings: null }))
        await deps.secrets.delete(EMBEDDINGS_SECRET)
        await deps.onEmbeddingsChanged?.()
        return changed()
      }
      const { apiKey, ...config } = embeddings
      await deps.settings.update((current) => ({ ...current, embeddings: config }))
      if (apiKey === '') await deps.secrets.delete(EMBEDDINGS_SECRET)
      else if (apiKey !== undefined) await deps.secrets.set(EMBEDDINGS_SECRET, apiKey)
      await deps.onEmbeddingsChanged?.()
      return changed()
    },
    async 'settings:saveBrowser'({ viewport }) {
      await deps.settings.update((current) => ({ ...current, browser: { ...current.browser, viewport } }))
      return changed()
    },
    async 'settings:saveMcp'(mcp) {
      await deps.settings.update((current) => ({ ...current, mcp: { ...current.mcp, ...mcp } }))
      return changed()
    }
  }
}

/**
 * A saved key is sent only where that provider sends it: same kind and base URL as the saved entry.
 * A form aimed elsewhere must have its own key typed (or an environment key that may reach it).
 */
async function storedKeyFor(
  deps: SettingsHandlerDeps,
  input: ListModelsInput,
  env: Record<string, string | undefined>
): Promise<string | undefined> {
  const saved = input.providerId ? deps.settings.get().providers.find((p) => p.id === input.providerId) : undefined
  const sameEndpoint = saved && saved.kind === input.kind && (saved.baseUrl ?? '') === (input.baseUrl ?? '')
  // Provider ids cannot hold ':', so the draft's name never finds a stored secret.
  const target = sameEndpoint ? saved : { id: 'draft:models', kind: input.kind, baseUrl: input.baseUrl }
  return (await resolveApiKey(deps.secrets, target, env)).key
}

function requireProvider(settings: SettingsStore, id: string): void {
  if (!settings.get().providers.some((p) => p.id === id)) {
    throw new UserFacingError('not_found', `No provider with id "${id}".`)
  }
}

export async function buildSettingsView(deps: SettingsHandlerDeps): Promise<SettingsView> {
  const current = deps.settings.get()
  const providers: ProviderView[] = []
  const secretProblems = new Set<string>()
  for (const provider of current.providers) {
    const { key } = await resolveApiKey(deps.secrets, provider, deps.env ?? process.env).catch((error: unknown) => {
      // A damaged secrets file is shown as what it is, not as "no API key".
      secretProblems.add(error instanceof Error ? error.message : String(error))
      return { key: undefined }
    })
    providers.push({ ...provider, hasKey: Boolean(key), keyHint: key && key.length >= 8 ? key.slice(-4) : undefined })
  }
  const { mistakeLimit, repetitionLimit, maxRequests, maxCostUsd, commandHardLimitSec } = current.policy
  return {
    providers,
    activeProviderId: current.activeProviderId,
    limits: { mistakeLimit, repetitionLimit, maxRequests, maxCostUsd, commandHardLimitSec },
    commandRules: current.policy.commandRules,
    theme: current.theme,
    embeddings: current.embeddings
      ? {
          ...current.embeddings,
          hasKey: Boolean(await resolveEmbeddingsKey(deps.secrets, current.embeddings, deps.env ?? process.env))
        }
      : null,
    browser: { viewport: current.browser.viewport, chromium: chromiumStatus(deps.findBrowser ?? findChromiumSync) },
    mcp: current.mcp,
    problems: [...deps.settings.problems(), ...secretProblems]
  }
}

const chromiumStatus = (find: () => FoundChromium | null): SettingsView['browser']['chromium'] => {
  const found = find()
  return found ? { found: true, path: found.path, source: found.source } : { found: false, advice: noBrowserAdvice() }
}
