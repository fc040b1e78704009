import { useCallback, useState, type ClipboardEvent, type DragEvent } from 'react'
import {
  formatMegabytes,
  IMAGE_MEDIA_TYPES,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  sniffImageType
} from '../../../../../shared/agent/image-format'
import type { ImageAttachment } from '../../../../../shared/agent/images'

export interface PendingImage extends ImageAttachment {
  id: string
}

export interface ImageAttachments {
  images: PendingImage[]
  /** Why the last file was not attached (too big, not an image, too many). */
  problem: string | null
  add(files: readonly File[]): Promise<void>
  remove(id: string): void
  clear(): void
  onPaste(event: ClipboardEvent): void
  onDrop(event: DragEvent): void
  onDragOver(event: DragEvent): void
}

const readBase64 = (file: File): Promise<string> =>
  new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve((typeof reader.result === 'string' ? reader.result : '').replace(/^data:[^,]*,/, ''))
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'))
    reader.readAsDataURL(file)
  })

let nextId = 0

/** Images pasted, dropped or picked for the next message, checked as the core checks them. */
export function useImageAttachments(): ImageAttachments {
  const [images, setImages] = useState<PendingImage[]>([])
  const [problem, setProblem] = useState<string | null>(null)

  const add = useCallback(async (files: readonly File[]) => {
    const problems: string[] = []
    const accepted: PendingImage[] = []
    for (const file of files) {
      if (!(IMAGE_MEDIA_TYPES as readonly string[]).includes(file.type)) {
        problems.push(`${file.name || 'The file'} is not a PNG, JPEG, GIF or WebP image.`)
        continue
      }
      if (file.size > MAX_IMAGE_BYTES) {
        problems.push(
          `${file.name || 'The image'} is ${formatMegabytes(file.size)}; an image may be up to ${formatMegabytes(MAX_IMAGE_BYTES)}.`
        )
        continue
      }
      const dataBase64 = await readBase64(file)
      const mediaType = sniffImageType(dataBase64)
      if (!mediaType) {
        problems.push(`${file.name || 'The file'} is not a PNG, JPEG, GIF or WebP image.`)
        continue
      }
      accepted.push({ id: `img${nextId++}`, mediaType, dataBase64, name: file.name || undefined })
    }
    setImages((current) => {
      const room = MAX_IMAGES_PER_MESSAGE - current.length
      if (accepted.length > room) problems.push(`A message may carry up to ${MAX_IMAGES_PER_MESSAGE} images.`)
      return [...current, ...accepted.slice(0, Math.max(room, 0))]
    })
    setProblem(problems.length > 0 ? problems.join(' ') : null)
  }, [])

  const filesOf = (list: DataTransferItemList | FileList | null | undefined): File[] =>
    Array.from((list ?? []) as ArrayLike<DataTransferItem | File>).flatMap((entry) => {
      if (entry instanceof File) return [entry]
      const file = entry.kind === 'file' ? entry.getAsFile() : null
      return file ? [file] : []
    })

  return {
    images,
    problem,
    add,
    remove: (id) => setImages((current) => current.filter((image) => image.id !== id)),
    clear: () => {
      setImages([])
      setProblem(null)
    },
    onPaste(event) {
      const files = filesOf(event.clipboardData?.files)
      if (files.length === 0) return // plain text pastes as usual
      event.preventDefault()
      void add(files)
    },
    onDrop(event) {
      const files = filesOf(event.dataTransfer?.files)
      if (files.length === 0) return
      event.preventDefault()
      void add(files)
    },
    onDragOver(event) {
      if (Array.from(event.dataTransfer?.types ?? []).includes('Files')) event.preventDefault()
    }
  }
}

/** The attachments as the contract takes them. */
export const forRequest = (images: readonly PendingImage[]): ImageAttachment[] =>
  images.map(({ mediaType, dataBase64, name }) => ({ mediaType, dataBase64, ...(name ? { name } : {}) }))
