import { useRef, type ReactNode } from 'react'
import { IMAGE_MEDIA_TYPES } from '../../../../../shared/agent/image-format'
import type { ImageAttachments } from './use-image-attachments'

/** The "Attach image" button (a real file input, so the keyboard and screen readers reach it). */
export function AttachImageButton({ attachments }: { attachments: ImageAttachments }): ReactNode {
  const input = useRef<HTMLInputElement>(null)
  return (
    <>
      <button type="button" onClick={() => input.current?.click()} title="Attach PNG, JPEG, GIF or WebP images">
        Attach image
      </button>
      <input
        ref={input}
        type="file"
        hidden
        multiple
        aria-label="Attach images"
        accept={IMAGE_MEDIA_TYPES.join(',')}
        onChange={(event) => {
          void attachments.add(Array.from(event.target.files ?? []))
          event.target.value = ''
        }}
      />
    </>
  )
}

/** Thumbnails of the images the next message carries, each with its remove button. */
export function AttachmentTray({ attachments }: { attachments: ImageAttachments }): ReactNode {
  if (attachments.images.length === 0 && !attachments.problem) return null
  return (
    <div className="attachment-tray">
      {attachments.images.length > 0 && (
        <ul aria-label="Attached images">
          {attachments.images.map((image, index) => {
            const label = image.name ?? `image ${index + 1}`
            return (
              <li key={image.id}>
                <img src={`data:${image.mediaType};base64,${image.dataBase64}`} alt={label} />
                <button type="button" aria-label={`Remove ${label}`} onClick={() => attachments.remove(image.id)}>
                  ×
                </button>
              </li>
            )
          })}
        </ul>
      )}
      {attachments.problem && (
        <p className="form-error" role="alert">
          {attachments.problem}
        </p>
      )}
    </div>
  )
}
