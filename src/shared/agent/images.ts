import { z } from 'zod'
import {
  formatMegabytes,
  IMAGE_MEDIA_TYPES,
  MAX_IMAGE_BASE64_CHARS,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_MESSAGE,
  MAX_MESSAGE_IMAGE_CHARS,
  sniffImageType
} from './image-format'

export * from './image-format'

export const ImageAttachment = z
  .object({
    mediaType: z.enum(IMAGE_MEDIA_TYPES),
    dataBase64: z
      .string()
      .min(16)
      .max(MAX_IMAGE_BASE64_CHARS, `An image may be up to ${formatMegabytes(MAX_IMAGE_BYTES)}.`)
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'The image data is not base64.'),
    /** The file's name, shown on the thumbnail. */
    name: z.string().max(200).optional()
  })
  .strict()
  .refine((image) => sniffImageType(image.dataBase64) === image.mediaType, {
    message: 'The image bytes do not match its type (PNG, JPEG, GIF or WebP).'
  })
export type ImageAttachment = z.infer<typeof ImageAttachment>

export const ImageAttachments = z
  .array(ImageAttachment)
  .max(MAX_IMAGES_PER_MESSAGE, `A message may carry up to ${MAX_IMAGES_PER_MESSAGE} images.`)
  .refine((images) => images.reduce((sum, image) => sum + image.dataBase64.length, 0) <= MAX_MESSAGE_IMAGE_CHARS, {
    message: `The images of one message may total up to ${formatMegabytes((MAX_MESSAGE_IMAGE_CHARS * 3) / 4)}.`
  })
