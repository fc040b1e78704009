import { create } from 'zustand'

/** Which main view is shown; features switch views through `show` (e.g. "open in chat"). */
interface NavigationSlice {
  viewId: string
  show(viewId: string): void
}

export const useNavigationStore = create<NavigationSlice>((set) => ({
  viewId: 'chat',
  show: (viewId) => set({ viewId })
}))
