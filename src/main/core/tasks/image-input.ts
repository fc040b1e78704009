import type { ImageAttachment } from '../../../shared/agent/images'
import type { ImageBlock } from '../../../shared/agent/messages'
import { UserFacingError } from '../../../shared/contract/dispatch'
import type { ProviderPort } from '../ports/loop-ports'

/**
 * Images go only to a model that reads them; for any other the message is refused before anything
 * is sent or recorded, so the user keeps it and can remove the images or switch models.
 */
export function imagesForModel(images: readonly ImageAttachment[] | undefined, provider: ProviderPort): ImageBlock[] {
  if (!images?.length) return []
  if (!provider.info.supportsImages) {
    throw new UserFacingError(
      'images_not_supported',
      `The model ${provider.model} does not accept images, so the message was not sent. Remove the images, or choose a model that takes them (a custom model: turn on "Accepts images" in its provider settings).`
    )
  }
  return images.map(({ mediaType, dataBase64 }) => ({ type: 'image', mediaType, dataBase64 }))
}
