import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { expect, openWorkspaceAndProvider, test } from './harness'

// The browser surface has no native dialog: after the first folder, the header opens and switches folders.

test('the web host switches folders: typed path with completion, checked by the core, and recent folders', async ({
  page,
  modus
}) => {
  const other = join(dirname(modus.workspace), 'other-project')
  mkdirSync(other)
  writeFileSync(join(other, 'OTHER.md'), '# Other\n')
  await openWorkspaceAndProvider(page, modus)

  const header = page.getByRole('banner')
  await header.getByRole('button', { name: 'Folder sample-project: switch folder' }).click()
  const dialog = page.getByRole('dialog', { name: 'Switch folder' })
  await expect(dialog).toContainText(`Open now: ${modus.workspace}`)
  const field = dialog.getByLabel('Folder path')
  await expect(field).toBeFocused()

  // Completion: the folders that continue what is typed.
  await field.fill(join(dirname(modus.workspace), 'oth'))
  await expect(dialog.locator('datalist option')).toHaveCount(1)
  await expect(dialog.locator('datalist option')).toHaveAttribute('value', other)

  // The core checks the path: a file or a missing folder is refused in words, and nothing changes.
  await field.fill(join(modus.workspace, 'README.md'))
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(dialog.getByRole('alert')).toContainText('Not a folder')
  await field.fill(join(dirname(modus.workspace), 'nowhere'))
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(dialog.getByRole('alert')).toContainText('No such folder')

  await field.fill(other)
  await dialog.getByRole('button', { name: 'Open', exact: true }).click()
  await expect(dialog).toBeHidden()
  await expect(header.getByRole('button', { name: 'Folder other-project: switch folder' })).toBeVisible()
  // The new folder is the one the agent's terminal and tools work in.
  await page.getByRole('button', { name: 'Terminal', exact: true }).click()
  await page.getByRole('button', { name: 'New terminal' }).click()
  await page.locator('.xterm-helper-textarea').first().focus()
  await page.keyboard.type('ls\n')
  await expect(page.locator('.xterm-rows').first()).toContainText('OTHER.md')

  // Back through the recent folders; Escape closes the dialog without a change.
  await header.getByRole('button', { name: /switch folder/ }).click()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog', { name: 'Switch folder' })).toBeHidden()
  await header.getByRole('button', { name: /switch folder/ }).click()
  await page
    .getByRole('dialog', { name: 'Switch folder' })
    .getByRole('list', { name: 'Recent folders' })
    .getByRole('button', { name: modus.workspace })
    .click()
  await expect(header.getByRole('button', { name: 'Folder sample-project: switch folder' })).toBeVisible()
  await page.reload()
  await expect(header.getByRole('button', { name: 'Folder sample-project: switch folder' })).toBeVisible()
})
