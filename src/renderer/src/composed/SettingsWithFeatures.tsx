import type { ReactNode } from 'react'
import { NotifyToggle } from '../common/NotifyToggle'
import { SettingsSection } from '../features/settings/SettingsSection'
import { WorktreeSettings } from '../features/worktrees/WorktreeSettings'
import { SettingsView } from '../SettingsView'

/** Settings with the sections other features own, composed here so no feature imports another. */
export function SettingsWithFeatures(): ReactNode {
  return (
    <SettingsView
      sections={
        <>
          <SettingsSection
            title="Notifications"
            description="A task that waits for you, finishes or fails raises a desktop notification naming it."
          >
            <NotifyToggle />
          </SettingsSection>
          <SettingsSection
            title="Worktrees"
            description="Tasks in worktrees run on their own branch and folder; these settings make each new worktree runnable."
          >
            <WorktreeSettings />
          </SettingsSection>
        </>
      }
    />
  )
}
