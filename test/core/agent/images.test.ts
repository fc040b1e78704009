import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { createMcpHub, type McpHub } from '../../../src/main/core/mcp/hub'
import { createProviderChoice } from '../../../src/main/core/loop/provider-choice'
import { createFileSecretStore } from '../../../src/main/core/settings/secret-store'
import { createSettingsStore } from '../../../src/main/core/settings/settings-store'
import { ImageAttachments } from '../../../src/shared/agent/images'
import { toolResultsIn, type RecordedRequest } from '../../support/fake-provider'
import { everythingStdio } from '../../support/mcp/servers'
import { createDeferredDisposals } from '../../support/deferred-disposals'
import { createHarness, type Harness, type Protocol } from './support/harness'

/** A real 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=='
const image = { mediaType: 'image/png' as const, dataBase64: PNG, name: 'dot.png' }
const done = { toolCalls: [{ name: 'attempt_completion', input: { result: 'done' } }] }

let harness: Harness | undefined
let hub: McpHub | undefined
const hubDisposals = createDeferredDisposals()
afterEach(async () => {
  expect(harness?.fake.failures ?? []).toEqual([])
  await harness?.close()
  if (hub) hubDisposals.add(hub.dispose())
  harness = undefined
  hub = undefined
})
afterAll(() => hubDisposals.settle())

const modelRequests = (h: Harness): RecordedRequest[] => h.fake.requests.filter((r) => r.protocol !== 'unknown')
const lastUserMessage = (request: RecordedRequest) =>
  JSON.stringify((request.body.messages as Array<{ role: string }>).filter((m) => m.role === 'user').at(-1))

describe.each<Protocol>(['anthropic', 'openai'])('%s: images the user attaches', (protocol) => {
  it('reach the model in the wire format of the SDK and stay with the task after it leaves memory', async () => {
    harness = await createHarness({ protocol, turns: [done, done] })
    const task = await harness.services.tasks.start({
      text: 'What is in this picture?',
      mode: 'ask',
      workspace: harness.workspace,
      images: [image]
    })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const sent = lastUserMessage(modelRequests(harness)[0])
    if (protocol === 'anthropic')
      expect(sent).toContain(`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"${PNG}"}}`)
    else expect(sent).toContain(`{"type":"image_url","image_url":{"url":"data:image/png;base64,${PNG}"}}`)
    expect(sent).toContain('What is in this picture?')

    // A follow-up with another image: the earlier one is still in the history, the new one is added.
    await harness.services.tasks.send({ taskId: task.id, text: 'And this one?', images: [image] })
    await harness.waitForEvent(
      (e, id) =>
        id === task.id &&
        e.type === 'completion' &&
        harness!.eventsOf(task.id).filter((x) => x.type === 'completion').length === 2
    )
    const second = JSON.stringify(modelRequests(harness)[1].body.messages)
    expect(second.split(PNG).length - 1).toBe(2)

    // The task left memory when its run ended: its events come back from the log with the images.
    const replayed = await harness.services.tasks.events(task.id)
    const messages = replayed.filter((e) => e.type === 'user-message')
    expect(messages).toHaveLength(2)
    expect(messages.map((e) => (e.type === 'user-message' ? e.images?.[0]?.dataBase64 : null))).toEqual([PNG, PNG])
  })
})

describe('a model without image input', () => {
  it('refuses a message with images before sending anything, naming the model; no task is created', async () => {
    harness = await createHarness({ protocol: 'openai', model: 'qwen3-coder', turns: [done] })
    await expect(
      harness.services.tasks.start({ text: 'look', mode: 'ask', workspace: harness.workspace, images: [image] })
    ).rejects.toMatchObject({
      code: 'images_not_supported',
      message: expect.stringContaining('qwen3-coder does not accept images')
    })
    expect(modelRequests(harness)).toHaveLength(0)
    expect(harness.services.tasks.list()).toHaveLength(0)

    // Without images the same text goes; a follow-up with an image is refused and leaves no row.
    const task = await harness.services.tasks.start({ text: 'look', mode: 'ask', workspace: harness.workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    await expect(
      harness.services.tasks.send({ taskId: task.id, text: 'and this', images: [image] })
    ).rejects.toMatchObject({ code: 'images_not_supported' })
    const rows = (await harness.services.tasks.events(task.id)).filter((e) => e.type === 'user-message')
    expect(rows).toHaveLength(1)
    expect(modelRequests(harness)).toHaveLength(1)
  })

  it('still shows an MCP image to the user while the model gets a line in its place', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'modus-data-'))
    const { promises: fs, realpathSync } = await import('node:fs')
    const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'modus-ws-')))
    await fs.writeFile(
      join(dataDir, 'mcp.json'),
      JSON.stringify({ mcpServers: { everything: everythingStdio({ alwaysAllow: ['*'] }) } })
    )
    hub = createMcpHub({
      dataDir,
      env: process.env,
      isTrusted: () => false,
      backoff: { baseMs: 50, maxMs: 100, maxRestarts: 1 }
    })
    await hub.open(workspace)
    await hub.settled()
    harness = await createHarness({
      protocol: 'openai',
      model: 'qwen3-coder',
      dataDir,
      workspace,
      mcp: hub,
      turns: [{ toolCalls: [{ name: 'mcp--everything--get-tiny-image', input: {} }] }, done]
    })
    const task = await harness.services.tasks.start({ text: 'an image', mode: 'code', workspace })
    await harness.waitForEvent((e, id) => id === task.id && e.type === 'completion')
    const shown = harness.eventsOf(task.id).find((e) => e.type === 'tool-result' && e.images)
    expect(shown).toMatchObject({ images: [{ mediaType: 'image/png' }] })
    const request = modelRequests(harness)[1]
    expect(JSON.stringify(request.body.messages)).not.toContain('image_url')
    expect(
      toolResultsIn(request)
        .map((r) => r.text)
        .join('\n') + lastUserMessage(request)
    ).toMatch(/\[image image\/png, \d+ bytes: shown to the user, not sent — this model does not take images\]/)
  })
})

describe('"accepts images" in a custom provider', () => {
  it('decides whether the model reads images, over the model table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modus-settings-'))
    const settings = await createSettingsStore(join(dir, 'settings.json'))
    const provider = {
      id: 'local',
      kind: 'openai-compatible' as const,
      label: 'Ollama',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llava:13b'
    }
    await settings.update((s) => ({ ...s, providers: [provider], activeProviderId: 'local' }))
    const choose = createProviderChoice({
      settings,
      secrets: createFileSecretStore(join(dir, 'secrets.json')),
      env: {}
    })
    expect((await choose({})).info.supportsImages).toBe(false)
    await settings.update((s) => ({ ...s, providers: [{ ...provider, acceptsImages: true }] }))
    expect((await choose({})).info.supportsImages).toBe(true)
  })
})

describe('the image attachment schema', () => {
  it('takes PNG, JPEG, GIF and WebP whose bytes match their type; refuses others, a wrong type and too many', () => {
    expect(ImageAttachments.safeParse([image]).success).toBe(true)
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0, 1, 1]).toString('base64')
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00').toString('base64')
    const webp = Buffer.from('RIFF\x1a\x00\x00\x00WEBPVP8 ').toString('base64')
    expect(ImageAttachments.safeParse([{ mediaType: 'image/jpeg', dataBase64: jpeg }]).success).toBe(true)
    expect(ImageAttachments.safeParse([{ mediaType: 'image/gif', dataBase64: gif }]).success).toBe(true)
    expect(ImageAttachments.safeParse([{ mediaType: 'image/webp', dataBase64: webp }]).success).toBe(true)
    expect(ImageAttachments.safeParse([{ mediaType: 'image/jpeg', dataBase64: PNG }]).success).toBe(false)
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')
    expect(ImageAttachments.safeParse([{ mediaType: 'image/svg+xml', dataBase64: svg }]).success).toBe(false)
    expect(ImageAttachments.safeParse(Array.from({ length: 11 }, () => image)).success).toBe(false)
    const big = PNG + 'A'.repeat(5 * 1024 * 1024)
    const tooBig = ImageAttachments.safeParse([{ mediaType: 'image/png', dataBase64: big }])
    expect(tooBig.success ? '' : tooBig.error.issues[0].message).toMatch(/up to 3\.8 MB/)
  })
})
