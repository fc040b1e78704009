import { mkdtempSync, promises as fs, realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { describeTarget, loadMcpConfig, mcpConfigFiles, updateMcpConfigFile } from '../../../src/main/core/mcp/config'
import { assignExposedNames } from '../../../src/main/core/mcp/tool-names'

const tempDir = (prefix: string) => realpathSync(mkdtempSync(join(tmpdir(), prefix)))
const put = async (path: string, text: string) => {
  await fs.mkdir(join(path, '..'), { recursive: true })
  await fs.writeFile(path, text)
}

describe('MCP config files', () => {
  it("reads the global mcp.json, the project's .modus/mcp.json and Roo's .roo/mcp.json as they are", async () => {
    const dataDir = tempDir('modus-mcp-cfg-')
    const root = tempDir('modus-mcp-ws-')
    await put(
      join(dataDir, 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', 'server-github'],
            env: { TOKEN: '${env:GH_TOKEN}' },
            alwaysAllow: ['list_issues'],
            timeout: 30
          }
        }
      })
    )
    await put(
      join(root, '.roo', 'mcp.json'),
      JSON.stringify({
        mcpServers: {
          docs: { type: 'sse', url: 'http://127.0.0.1:9/sse', headers: { Authorization: 'Bearer ${env:DOCS_KEY}' } },
          shared: { command: 'roo-version' }
        }
      })
    )
    await put(
      join(root, '.modus', 'mcp.json'),
      JSON.stringify({
        mcpServers: { shared: { command: 'modus-version', cwd: '${workspaceFolder}/tools', disabledTools: ['drop'] } }
      })
    )
    const loaded = await loadMcpConfig(mcpConfigFiles(dataDir, root), {
      env: { GH_TOKEN: 'secret-1', DOCS_KEY: 'k2' },
      workspaceRoot: root
    })
    expect(loaded.problems).toEqual([])
    expect(loaded.global[0]).toMatchObject({
      name: 'github',
      transport: 'stdio',
      env: { TOKEN: 'secret-1' },
      alwaysAllow: ['list_issues'],
      timeoutMs: 30_000,
      cwd: root
    })
    const byName = Object.fromEntries(loaded.project.map((server) => [server.name, server]))
    expect(byName.docs).toMatchObject({ transport: 'sse', headers: { Authorization: 'Bearer k2' }, timeoutMs: 60_000 })
    // .modus wins over .roo for the same name.
    expect(byName.shared).toMatchObject({ command: 'modus-version', cwd: `${root}/tools`, disabledTools: ['drop'] })
    // What the trust prompt shows is what the file says, secrets unexpanded.
    expect(describeTarget(loaded.global[0].entry)).toBe('npx -y server-github')
    expect(describeTarget(byName.docs.entry)).toBe('http://127.0.0.1:9/sse')
  })

  it('reports a broken file with its line, skips a broken server, flags unset variables — and never rewrites the file', async () => {
    const dataDir = tempDir('modus-mcp-cfg-')
    const broken = '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n'
    await put(join(dataDir, 'mcp.json'), broken)
    const root = tempDir('modus-mcp-ws-')
    await put(
      join(root, '.modus', 'mcp.json'),
      JSON.stringify(
        {
          mcpServers: {
            both: { command: 'x', url: 'http://127.0.0.1:1' },
            none: {},
            fine: { command: 'y', args: ['${env:NOT_SET_ANYWHERE}'] }
          }
        },
        null,
        2
      )
    )
    const loaded = await loadMcpConfig(mcpConfigFiles(dataDir, root), { env: {}, workspaceRoot: root })
    expect(loaded.global).toEqual([])
    expect(loaded.problems[0]).toMatchObject({ file: join(dataDir, 'mcp.json'), line: 3 })
    expect(loaded.problems[0].message).toMatch(/line 3.*trailing comma/)
    const messages = loaded.problems.map((problem) => problem.message).join('\n')
    expect(messages).toMatch(/server "both" has both "command" and "url"/)
    expect(messages).toMatch(/server "none" needs a "command" \(stdio\) or a "url"/)
    expect(messages).toMatch(/NOT_SET_ANYWHERE/)
    expect(loaded.project.map((server) => server.name)).toEqual(['fine'])

    await expect(
      updateMcpConfigFile(join(dataDir, 'mcp.json'), (servers) => (servers.b = { command: 'z' }))
    ).rejects.toThrow(/line 3.*not changed/)
    expect(await fs.readFile(join(dataDir, 'mcp.json'), 'utf8')).toBe(broken)
  })

  it('writes a server into the file, keeping the rest of it and the ${env:…} references', async () => {
    const dataDir = tempDir('modus-mcp-cfg-')
    const file = join(dataDir, 'mcp.json')
    await put(file, JSON.stringify({ note: 'kept', mcpServers: { a: { command: 'x', env: { K: '${env:K}' } } } }))
    await updateMcpConfigFile(file, (servers) => (servers.b = { url: 'http://127.0.0.1:5/mcp' }))
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({
      note: 'kept',
      mcpServers: { a: { command: 'x', env: { K: '${env:K}' } }, b: { url: 'http://127.0.0.1:5/mcp' } }
    })
  })
})

describe('tool names the model sees', () => {
  it('are sanitised, at most 64 characters, and collisions get a deterministic suffix', () => {
    const tools = [
      { server: 'my server', tool: 'do.thing' },
      { server: 'my_server', tool: 'do_thing' },
      { server: 'x'.repeat(40), tool: 'y'.repeat(40) },
      { server: 'x'.repeat(40), tool: `${'y'.repeat(40)}z` }
    ]
    const names = assignExposedNames(tools)
    const reversed = assignExposedNames([...tools].reverse())
    expect([...names.entries()].sort()).toEqual([...reversed.entries()].sort())
    expect(names.get('my server\u0000do.thing')).toBe('mcp--my_server--do_thing')
    expect(names.get('my_server\u0000do_thing')).toBe('mcp--my_server--do_thing_2')
    const long = [...names.values()].filter((name) => name.startsWith('mcp--xxx'))
    expect(new Set(long).size).toBe(2)
    for (const name of names.values()) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/)
  })
})
