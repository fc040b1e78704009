import { lazy, Suspense, type ReactNode } from 'react'
import { CodeIndexStatusPanel, EmbeddingsForm } from './features/code-index/CodeIndexSettings'
import { BrowserSettings } from './features/settings/BrowserSettings'
import { CommandRulesForm } from './features/settings/CommandRulesForm'
import { CheckpointSettings } from './features/checkpoints/CheckpointSettings'
import { LimitsForm } from './features/settings/LimitsForm'
import { McpSettings } from './features/mcp/McpSettings'
import { ProviderList } from './features/settings/ProviderList'
import { useSettingsStore } from './common/settings/settings-store'
import { SettingsSection } from './features/settings/SettingsSection'
import { ThemePicker } from './features/settings/ThemePicker'
import { TrustSettings } from './features/settings/TrustSettings'
import './features/settings/settings.css'

// Hooks validate with the contract's zod schema: loaded with the section, not in the first chunk.
const HooksSettings = lazy(() =>
  import('./features/hooks/HooksSettings').then((module) => ({ default: module.HooksSettings }))
)

/**
 * The Settings view: providers and models, global limits, appearance. `sections` are other features'
 * settings, composed by the app (views.tsx) so this feature does not import them.
 */
export function SettingsView({ sections }: { sections?: ReactNode }): ReactNode {
  const problems = useSettingsStore((state) => state.settings?.problems ?? [])
  return (
    <section className="settings-view" aria-label="Settings">
      <h1>Settings</h1>
      {problems.length > 0 && (
        <div className="form-error" role="alert">
          {problems.map((problem) => (
            <p key={problem}>{problem}</p>
          ))}
        </div>
      )}
      <SettingsSection title="Providers">
        <ProviderList />
      </SettingsSection>
      <SettingsSection
        title="Trust"
        description="A folder’s own files (project modes, rules, hooks, MCP servers) grant permissions only once you trust it."
      >
        <TrustSettings />
      </SettingsSection>
      <SettingsSection title="Limits">
        <LimitsForm />
      </SettingsSection>
      <SettingsSection
        title="Command rules"
        description="They apply in every mode; a mode’s own rules add to them. “Always ask” commands still ask."
      >
        <CommandRulesForm />
      </SettingsSection>
      <SettingsSection
        title="Hooks"
        description="Your own programs around tool calls and messages, as in Claude Code: they may deny or ask before a call, allow what the policy would only ask, and add notes for the model."
      >
        <Suspense
          fallback={
            <p className="note" aria-busy="true">
              Loading hooks…
            </p>
          }
        >
          <HooksSettings />
        </Suspense>
      </SettingsSection>
      <SettingsSection
        title="Codebase index"
        description="codebase_search finds code by meaning. It works lexically with no setup; an embeddings endpoint adds semantic ranking."
      >
        <CodeIndexStatusPanel />
        <EmbeddingsForm />
      </SettingsSection>
      <SettingsSection
        title="Browser"
        description="browser_action opens pages in a headless Chromium for the modes with the browser group."
      >
        <BrowserSettings />
      </SettingsSection>
      <SettingsSection title="MCP tools" description="Servers are added and edited in the MCP view.">
        <McpSettings />
      </SettingsSection>
      <SettingsSection title="Checkpoints">
        <CheckpointSettings />
      </SettingsSection>
      <SettingsSection title="Appearance" description="The theme applies as soon as you choose it.">
        <ThemePicker />
      </SettingsSection>
      {sections}
    </section>
  )
}
