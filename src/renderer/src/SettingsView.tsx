import type { ReactNode } from 'react'
import { CodeIndexStatusPanel, EmbeddingsForm } from './features/code-index/CodeIndexSettings'
import { BrowserSettings } from './features/settings/BrowserSettings'
import { CommandRulesForm } from './features/settings/CommandRulesForm'
import { CheckpointSettings } from './features/checkpoints/CheckpointSettings'
import { LimitsForm } from './features/settings/LimitsForm'
import { McpSettings } from './features/mcp/McpSettings'
import { ProviderList } from './features/settings/ProviderList'
import { useSettingsStore } from './common/settings/settings-store'
import { ThemePicker } from './features/settings/ThemePicker'
import { TrustSettings } from './features/settings/TrustSettings'
import './features/settings/settings.css'

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
      <h2>Providers</h2>
      <ProviderList />
      <h2>Trust</h2>
      <p className="note">
        A folder’s own files (project modes, rules, hooks, MCP servers) grant permissions only once you trust it.
      </p>
      <TrustSettings />
      <h2>Limits</h2>
      <LimitsForm />
      <h2>Command rules</h2>
      <p className="note">They apply in every mode; a mode’s own rules add to them. “Always ask” commands still ask.</p>
      <CommandRulesForm />
      <h2>Codebase index</h2>
      <p className="note">
        codebase_search finds code by meaning. It works lexically with no setup; an embeddings endpoint adds semantic
        ranking.
      </p>
      <EmbeddingsForm />
      <CodeIndexStatusPanel />
      <h2>Browser</h2>
      <p className="note">browser_action opens pages in a headless Chromium for the modes with the browser group.</p>
      <BrowserSettings />
      <h2>MCP tools</h2>
      <p className="note">Servers are added and edited in the MCP view.</p>
      <McpSettings />
      <h2>Checkpoints</h2>
      <CheckpointSettings />
      <h2>Appearance</h2>
      <ThemePicker />
      {sections}
    </section>
  )
}
