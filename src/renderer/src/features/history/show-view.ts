/**
 * Switches the app to another main view by pressing its navigation button, the same way a user
 * would: App keeps the current view in its own state and has no other entry point for features.
 */
export function showView(label: string, doc: Document = document): boolean {
  const buttons = doc.querySelectorAll<HTMLButtonElement>('nav[aria-label="Views"] button')
  for (const button of buttons) {
    if (button.textContent?.trim().startsWith(label)) {
      button.click()
      return true
    }
  }
  return false
}
