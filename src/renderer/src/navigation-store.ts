import { create } from 'zustand'
import { confirmLeavingUnsaved } from './components/unsaved-changes'

/** Which main view is shown; features switch views through `show` (e.g. "open in chat"). */
interface NavigationSlice {
  viewId: string
  show(viewId: string): void
}

export const useNavigationStore = create<NavigationSlice>((set, get) => ({
  viewId: 'chat',
  show: (viewId) => {
    // Leaving a view with unsaved edits (a Settings section) asks first; staying keeps them.
    if (viewId !== get().viewId && !confirmLeavingUnsaved()) return
    set({ viewId })
  }
}))
