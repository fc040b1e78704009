import type { ReactNode } from 'react'

/** The images a user message carried, kept with the task (a reload shows them). */
export function UserImages({ images }: { images: Array<{ mediaType: string; dataBase64: string }> }): ReactNode {
  return (
    <ul className="user-images" aria-label="Attached images">
      {images.map((image, index) => (
        <li key={index}>
          <img src={`data:${image.mediaType};base64,${image.dataBase64}`} alt={`Attached image ${index + 1}`} />
        </li>
      ))}
    </ul>
  )
}
