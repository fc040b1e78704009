import { create } from 'zustand'

/**
 * Sections with edits not saved yet (Settings: one Save per section). Leaving the view asks first;
 * a section leaves the list when it is saved, reset or unmounted.
 */
interface UnsavedSlice {
  sections: Record<string, string>
  mark(key: string, label: string, dirty: boolean): void
}

export const useUnsavedStore = create<UnsavedSlice>((set) => ({
  sections: {},
  mark: (key, label, dirty) =>
    set((state) => {
      if (dirty === Object.hasOwn(state.sections, key)) return state
      const { [key]: _gone, ...rest } = state.sections
      return { sections: dirty ? { ...rest, [key]: label } : rest }
    })
}))

/** The labels of the sections with unsaved edits, for the question asked before leaving them. */
export const unsavedSections = (): string[] => Object.values(useUnsavedStore.getState().sections)

/** Asks before unsaved edits are left behind; true when there are none or the user chose to leave them. */
export function confirmLeavingUnsaved(ask: (question: string) => boolean = (q) => window.confirm(q)): boolean {
  const sections = unsavedSections()
  if (sections.length === 0) return true
  const leave = ask(`Unsaved changes in ${sections.join(', ')}. Leave without saving them?`)
  if (leave) useUnsavedStore.setState({ sections: {} })
  return leave
}
