import { lastUserText, toolResultsIn, type RecordedRequest } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'
import { saveScreenshot } from './screenshots'

const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

test('a command waits in the queue with why it was asked; approving with the keyboard runs it', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    {
      text: 'Running the check.',
      toolCalls: [{ name: 'execute_command', input: { command: 'echo modus-approved-$((20+22))' } }]
    },
    completion('The command printed 42.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Run the check')
  await page.getByLabel('Message').press('Enter')

  // The nav badge and the window title count the waiting item.
  const nav = page.getByRole('navigation', { name: 'Views' })
  await expect(nav.getByRole('button', { name: /Approvals/ })).toContainText('1')
  await expect(page).toHaveTitle('(1) Modus')

  await nav.getByRole('button', { name: /Approvals/ }).click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const card = queue.locator('.approval-card[aria-current="true"]')
  await expect(card.locator('.tool-title')).toHaveText('Run echo modus-approved-$((20+22))')
  await expect(card.locator('.tool-title')).toHaveAttribute('title', 'Tool: execute_command')
  await expect(card).toContainText('echo modus-approved-$((20+22))')
  await expect(card).toContainText('code mode')
  await expect(card.locator('.approval-why')).toContainText('Why you were asked:')
  await saveScreenshot(page, 'approvals')

  // Opening the queue from the navigation puts the keyboard on the selected item.
  await expect(card).toBeFocused()
  await page.keyboard.press('a')
  await expect(queue).toContainText('Nothing is waiting for you.')
  await expect(page).toHaveTitle('Modus')

  await nav.getByRole('button', { name: 'Chat' }).click()
  const toolCard = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(toolCard).toContainText('Approved by you')
  await expect(toolCard.locator('.tool-result-text')).toContainText('modus-approved-42')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('The command printed 42.')
  const sent = toolResultsIn(modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1])
  expect(sent[0].text).toContain('modus-approved-42')
})

test('rejecting with a reason sends the reason to the model and nothing runs', async ({ page, modus }) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'rm -rf src' } }] },
    completion('Understood, nothing deleted.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Clean up')
  await page.getByLabel('Message').press('Enter')
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const card = queue.locator('.approval-card[aria-current="true"]')
  await expect(card).toContainText('rm -rf src')
  await card.focus()
  await page.keyboard.press('r')
  const reason = card.getByLabel(/The reason goes to the model/)
  await expect(reason).toBeFocused()
  await reason.fill('Never delete the sources; list them instead')
  await reason.press('Enter')
  await expect(queue).toContainText('Nothing is waiting for you.')

  await expect.poll(() => modus.fake.requests.filter((r) => r.protocol === 'anthropic').length).toBe(2)
  const next = modus.fake.requests.filter((r) => r.protocol === 'anthropic')[1]
  expect(JSON.stringify(toolResultsIn(next)) + lastUserText(next)).toContain(
    'Never delete the sources; list them instead'
  )
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Tool call execute_command' })).toContainText(
    'Rejected by you: Never delete the sources; list them instead'
  )
})

test('approving from the chat card, and "always allow" shows the rule before saving it', async ({ page, modus }) => {
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo first' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo second' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo second' } }] },
    completion('All ran.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Run the commands')
  await page.getByLabel('Message').press('Enter')
  const cards = page.getByRole('group', { name: 'Tool call execute_command' })
  const first = cards.nth(0)
  await expect(first).toContainText('waiting for approval')
  await first.getByRole('button', { name: 'Approve', exact: true }).click()
  await expect(first.locator('.tool-result-text')).toContainText('first')

  const second = cards.nth(1)
  await expect(second).toContainText('waiting for approval')
  await second.getByRole('button', { name: 'Always allow in this mode…' }).click()
  // The rule is shown, and nothing is saved until the user confirms it.
  await expect(second.locator('.proposed-rule')).toContainText('"echo *"')
  await expect(second.locator('.proposed-rule')).toContainText('Code mode')
  await second.getByRole('button', { name: 'Save rule and approve' }).click()
  await expect(second.locator('.tool-result-text')).toContainText('second')

  // The same command again is now auto-approved by the saved rule.
  const third = cards.nth(2)
  await expect(third.locator('.tool-decision')).toContainText(
    'Every part matches an allow rule and the mode auto-approves commands'
  )
  await expect(third.locator('.tool-result-text')).toContainText('second')
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('All ran.')
})

test('approving the whole turn runs the later calls of the same message without asking again', async ({
  page,
  modus
}) => {
  modus.fake.enqueue(
    {
      toolCalls: [
        { name: 'execute_command', input: { command: 'echo turn-one' } },
        { name: 'execute_command', input: { command: 'echo turn-two' } }
      ]
    },
    completion('Both ran in one turn.')
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Run both')
  await page.getByLabel('Message').press('Enter')
  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  const card = queue.locator('.approval-card[aria-current="true"]')
  await expect(card).toContainText('echo turn-one')
  await card.focus()
  await page.keyboard.press('Shift+A')
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat' }).click()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Both ran in one turn.')
  const cards = page.getByRole('group', { name: 'Tool call execute_command' })
  await expect(cards.nth(0).locator('.tool-result-text')).toContainText('turn-one')
  await expect(cards.nth(1).locator('.tool-result-text')).toContainText('turn-two')
  await expect(cards.nth(1).locator('.tool-decision')).not.toContainText('Waiting')
})

test('items from several tasks wait in one queue, grouped by task', async ({ page, modus }) => {
  const finish = (request: RecordedRequest) =>
    completion(JSON.stringify(toolResultsIn(request)).includes('from-alpha') ? 'Alpha done.' : 'Beta done.')
  modus.fake.enqueue(
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo from-alpha' } }] },
    { toolCalls: [{ name: 'execute_command', input: { command: 'echo from-beta' } }] },
    finish,
    finish
  )
  await openWorkspaceAndProvider(page, modus)
  await page.getByLabel('Message').fill('Task alpha')
  await page.getByLabel('Message').press('Enter')
  await expect(page.getByRole('group', { name: 'Tool call execute_command' })).toContainText('waiting for approval')
  // Start another task while the first one waits.
  await page.getByRole('button', { name: 'New task' }).click()
  await page.getByLabel('Message').fill('Task beta')
  await page.getByLabel('Message').press('Enter')
  await expect(page).toHaveTitle('(2) Modus')

  await page
    .getByRole('navigation', { name: 'Views' })
    .getByRole('button', { name: /Approvals/ })
    .click()
  const queue = page.getByRole('region', { name: 'Approvals' })
  await expect(queue.getByRole('heading', { level: 2 })).toHaveText(['Task alpha', 'Task beta'])
  await expect(queue.locator('.approval-card')).toHaveCount(2)
  await queue.locator('.approval-card[aria-current="true"]').focus()
  await page.keyboard.press('a')
  await expect(queue.locator('.approval-card')).toHaveCount(1)
  await expect(queue.locator('.approval-card[aria-current="true"]')).toContainText('echo from-beta')
  await expect(queue.locator('.approval-card[aria-current="true"]')).toBeFocused()
  await page.keyboard.press('a')
  await expect(queue).toContainText('Nothing is waiting for you.')
  await expect.poll(() => modus.fake.requests.filter((r) => r.protocol === 'anthropic').length).toBe(4)
  expect(modus.fake.failures).toEqual([])
})
