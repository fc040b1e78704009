import type { Page } from '@playwright/test'
import { expect, openWorkspaceAndProvider, test } from './harness'

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })
const command = (line: string) => ({ toolCalls: [{ name: 'execute_command', input: { command: line } }] })

/**
 * Every Notification the page constructs is recorded (the real one is still built), and whether the
 * window has focus is the test's to say: headless Chromium has no desktop to put it in the background.
 */
function recordNotifications(): void {
  const page = window as unknown as { __notices: string[]; __focused: boolean }
  page.__notices = []
  page.__focused = true
  const Real = window.Notification
  class Recording extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options)
      page.__notices.push(`${title} | ${options?.body ?? ''}`)
    }
  }
  window.Notification = Recording
  document.hasFocus = () => page.__focused
}

const notices = (page: Page): Promise<string[]> =>
  page.evaluate(() => (window as unknown as { __notices: string[] }).__notices)
const setFocused = (page: Page, focused: boolean): Promise<void> =>
  page.evaluate((value) => void ((window as unknown as { __focused: boolean }).__focused = value), focused)

test('a task that waits for approval or is done notifies by name, unless the user is looking at it', async ({
  page,
  context,
  modus
}) => {
  modus.fake.enqueue(
    command('echo first'),
    completion('First done.'),
    command('echo second'),
    completion('Second done.')
  )
  await context.grantPermissions(['notifications'], { origin: modus.origin })
  await page.addInitScript(recordNotifications)
  await openWorkspaceAndProvider(page, modus)
  const nav = page.getByRole('navigation', { name: 'Views' })

  await nav.getByRole('button', { name: 'Settings' }).click()
  const toggle = page.getByRole('checkbox', { name: 'Notify me when a task needs me' })
  await toggle.check()
  await expect(toggle).toBeChecked()

  // In the background: the approval the task waits for notifies, naming the task.
  await nav.getByRole('button', { name: 'Chat' }).click()
  await setFocused(page, false)
  await page.getByLabel('Message').fill('Check the build')
  await page.getByLabel('Message').press('Enter')
  await expect.poll(() => notices(page)).toEqual(['Waiting for your approval: Check the build | Run echo first'])

  // Focused on this very task: its end raises nothing.
  await setFocused(page, true)
  await page
    .getByRole('group', { name: 'Tool call execute_command' })
    .getByRole('button', { name: 'Approve', exact: true })
    .click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('First done.')
  await page.getByLabel('Message').fill('Once more')
  await page.getByLabel('Message').press('Enter')
  await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1')
  expect(await notices(page)).toHaveLength(1)

  // Answered from the queue, the conversation not on screen: its end notifies.
  await nav.getByRole('button', { name: /Approvals/ }).click()
  await page.getByRole('region', { name: 'Approvals' }).getByRole('button', { name: 'Approve', exact: true }).click()
  await expect
    .poll(() => notices(page))
    .toEqual([
      'Waiting for your approval: Check the build | Run echo first',
      'Task done: Check the build | Ready to review.'
    ])
})

test('without the user turning notifications on, nothing is shown even where the page may notify', async ({
  page,
  context,
  modus
}) => {
  modus.fake.enqueue(command('echo quiet'), completion('Quiet.'))
  await context.grantPermissions(['notifications'], { origin: modus.origin })
  await page.addInitScript(recordNotifications)
  await openWorkspaceAndProvider(page, modus)
  await setFocused(page, false)
  await page.getByLabel('Message').fill('Stay quiet')
  await page.getByLabel('Message').press('Enter')
  const nav = page.getByRole('navigation', { name: 'Views' })
  await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1')
  expect(await notices(page)).toEqual([])
})
