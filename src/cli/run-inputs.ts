import { promises as fs } from 'node:fs'
import { basename, resolve } from 'node:path'
import { createCommandCatalog } from '../main/core/commands/command-catalog'
import {
  formatMegabytes,
  ImageAttachments,
  MAX_IMAGE_BYTES,
  sniffImageType,
  type ImageAttachment
} from '../shared/agent/images'
import { isBuiltinCommand, parseSlashCommand } from '../shared/commands/builtins'
import { UsageError } from './args'

/** `--image FILE` (repeatable): each file read and checked as the composer checks a pasted one. */
export async function readImageFiles(paths: readonly string[], cwd: string): Promise<ImageAttachment[]> {
  const images: ImageAttachment[] = []
  for (const path of paths) {
    const full = resolve(cwd, path)
    const stat = await fs.stat(full).catch(() => null)
    if (!stat?.isFile()) throw new UsageError(`--image: no such file: ${full}`)
    if (stat.size > MAX_IMAGE_BYTES)
      throw new UsageError(
        `--image: ${basename(full)} is ${formatMegabytes(stat.size)}; an image may be up to ${formatMegabytes(MAX_IMAGE_BYTES)}.`
      )
    const dataBase64 = (await fs.readFile(full)).toString('base64')
    const mediaType = sniffImageType(dataBase64)
    if (!mediaType) throw new UsageError(`--image: ${basename(full)} is not a PNG, JPEG, GIF or WebP image.`)
    images.push({ mediaType, dataBase64, name: basename(full) })
  }
  const checked = ImageAttachments.safeParse(images)
  if (!checked.success) throw new UsageError(`--image: ${checked.error.issues[0]?.message ?? 'invalid images'}`)
  return images
}

/**
 * `modus run "/review src/a.ts"`: a prompt command of the project or the user expands as in the
 * composer; any other text (an unknown name, a path such as `/usr/bin/x is broken`) goes as written.
 */
export async function expandSlashCommand(text: string, deps: { dataDir: string; workspace: string }): Promise<string> {
  const parsed = parseSlashCommand(text)
  if (!parsed) return text
  if (isBuiltinCommand(parsed.name))
    throw new UsageError(
      `/${parsed.name} is a built-in of the app's composer; on an existing task: modus resume [TASK] /condense, /checkpoint or /cost.`
    )
  const catalog = createCommandCatalog({ dataDir: deps.dataDir, workspace: () => deps.workspace })
  const { commands } = await catalog.list()
  if (!commands.some((command) => command.name === parsed.name && command.source !== 'builtin')) return text
  return catalog.expand(parsed.name, parsed.args)
}
