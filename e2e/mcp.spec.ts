import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { toolResultsIn } from '../test/support/fake-provider'
import { expect, openWorkspaceAndProvider, test } from './harness'

const EVERYTHING = resolve(__dirname, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js')
const completion = (result: string) => ({ toolCalls: [{ name: 'attempt_completion', input: { result } }] })

test('a scripted model calls an MCP tool: the approval names server and tool, the result reaches the model; an untrusted project server does not start', async ({
  page,
  modus
}) => {
  mkdirSync(modus.dataDir, { recursive: true })
  writeFileSync(
    join(modus.dataDir, 'mcp.json'),
    JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } })
  )
  mkdirSync(join(modus.workspace, '.modus'), { recursive: true })
  writeFileSync(
    join(modus.workspace, '.modus', 'mcp.json'),
    JSON.stringify({ mcpServers: { 'repo-tool': { command: 'node', args: ['tools/mcp.js'], alwaysAllow: ['*'] } } })
  )
  modus.fake.enqueue(
    { toolCalls: [{ name: 'mcp--everything--echo', input: { message: 'hello over MCP' } }] },
    { toolCalls: [{ name: 'mcp--everything--get-tiny-image', input: {} }] },
    completion('Echoed and fetched an image.')
  )
  await openWorkspaceAndProvider(page, modus)

  // The trust prompt lists the project's server with its command line; declining keeps it stopped.
  const prompt = page.getByRole('dialog', { name: /Trust/ })
  await expect(prompt).toContainText("MCP server 'repo-tool' runs node tools/mcp.js")
  await prompt.getByRole('button', { name: 'Keep asking' }).click()

  const nav = page.getByRole('navigation', { name: 'Views' })
  await nav.getByRole('button', { name: 'MCP' }).click()
  const everything = page.getByRole('article', { name: 'MCP server everything' })
  await expect(everything.getByRole('status')).toHaveText('connected', { timeout: 20_000 })
  await expect(everything.getByRole('table', { name: 'Tools of everything' })).toContainText('echo')
  await expect(page.getByRole('article', { name: 'MCP server repo-tool' }).getByRole('status')).toHaveText(
    'not started (workspace not trusted)'
  )

  await nav.getByRole('button', { name: 'Chat' }).click()
  await page.getByLabel('Message').fill('Echo something through MCP')
  await page.getByLabel('Message').press('Enter')
  const echoCard = page.getByRole('group', { name: 'Tool call mcp--everything--echo' })
  await expect(echoCard).toContainText("tool 'echo' of MCP server 'everything'")
  await echoCard.getByRole('button', { name: 'Always allow this tool…' }).click()
  await expect(echoCard.getByRole('group', { name: 'Always allow' })).toContainText(join(modus.dataDir, 'mcp.json'))
  await echoCard.getByRole('button', { name: 'Save rule and approve' }).click()
  await expect(echoCard.locator('.tool-result-text')).toHaveText('Echo: hello over MCP')

  const imageCard = page.getByRole('group', { name: 'Tool call mcp--everything--get-tiny-image' })
  await imageCard.getByRole('button', { name: 'Approve', exact: true }).click()
  await imageCard.locator('summary').click()
  await expect(imageCard.getByRole('img', { name: 'Image 1 returned by the tool' })).toBeVisible()
  await expect(page.getByRole('group', { name: 'Task result' })).toContainText('Echoed and fetched an image.')

  const requests = modus.fake.requests.filter((r) => r.protocol === 'anthropic')
  expect(toolResultsIn(requests[1])[0].text).toBe('Echo: hello over MCP')
  expect(JSON.parse(readFileSync(join(modus.dataDir, 'mcp.json'), 'utf8')).mcpServers.everything.alwaysAllow).toEqual([
    'echo'
  ])
})
