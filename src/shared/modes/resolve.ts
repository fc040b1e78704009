import { BUILT_IN_MODES, DEFAULT_MODE_SLUG } from './builtin'
import type { ModeConfig, ResolvedMode } from './schema'

export interface ModeLayers {
  builtIns?: readonly ModeConfig[]
  global?: readonly ModeConfig[]
  project?: readonly ModeConfig[]
}

/**
 * All modes by precedence: project beats global beats built-in on the same slug. Built-ins keep
 * their order (replaced in place when overridden); other custom modes follow, project first.
 */
export function resolveModes(layers: ModeLayers): ResolvedMode[] {
  const builtIns = layers.builtIns ?? BUILT_IN_MODES
  const project = layers.project ?? []
  const global = layers.global ?? []
  const pick = (slug: string): ResolvedMode | undefined => {
    const fromProject = project.find((mode) => mode.slug === slug)
    if (fromProject) return { ...fromProject, origin: 'project', overridesBuiltIn: false }
    const fromGlobal = global.find((mode) => mode.slug === slug)
    if (fromGlobal) return { ...fromGlobal, origin: 'global', overridesBuiltIn: false }
    return undefined
  }
  const result: ResolvedMode[] = builtIns.map((builtIn) => {
    const custom = pick(builtIn.slug)
    return custom ? { ...custom, overridesBuiltIn: true } : { ...builtIn, origin: 'builtin', overridesBuiltIn: false }
  })
  const taken = new Set(result.map((mode) => mode.slug))
  for (const mode of [...project, ...global]) {
    if (taken.has(mode.slug)) continue
    taken.add(mode.slug)
    result.push(pick(mode.slug) as ResolvedMode)
  }
  return result
}

export const findMode = <M extends ModeConfig>(slug: string, modes: readonly M[]): M | undefined =>
  modes.find((mode) => mode.slug === slug)

/** The mode for a slug, or the default mode when the slug is unknown. */
export function modeOrDefault<M extends ModeConfig>(
  slug: string,
  modes: readonly M[],
  defaultSlug = DEFAULT_MODE_SLUG
): M {
  return findMode(slug, modes) ?? findMode(defaultSlug, modes) ?? modes[0]
}

export interface PromptOverride {
  roleDefinition?: string
  whenToUse?: string
  customInstructions?: string
}

export interface ModePrompt {
  roleDefinition: string
  baseInstructions: string
}

/**
 * Which role definition and instructions a mode runs with. A custom mode wins entirely (missing
 * fields are empty); a built-in takes non-empty prompt overrides; unknown slugs use the default.
 */
export function selectModePrompt(
  slug: string,
  options: {
    builtIns?: readonly ModeConfig[]
    customModes?: readonly ModeConfig[]
    override?: PromptOverride
    defaultSlug?: string
  } = {}
): ModePrompt {
  const custom = options.customModes?.find((mode) => mode.slug === slug)
  if (custom) return { roleDefinition: custom.roleDefinition ?? '', baseInstructions: custom.customInstructions ?? '' }
  const builtIns = options.builtIns ?? BUILT_IN_MODES
  const builtIn = modeOrDefault(slug, builtIns, options.defaultSlug)
  return {
    roleDefinition: options.override?.roleDefinition || builtIn.roleDefinition,
    baseInstructions: options.override?.customInstructions || builtIn.customInstructions || ''
  }
}

/** A mode with prompt overrides applied (Roo's getFullModeDetails, without instruction files). */
export function resolveModeDetails(
  slug: string,
  options: {
    builtIns?: readonly ModeConfig[]
    customModes?: readonly ModeConfig[]
    overrides?: Readonly<Record<string, PromptOverride>>
    defaultSlug?: string
  } = {}
): ModeConfig {
  const modes = resolveModes({ builtIns: options.builtIns, global: options.customModes })
  const { origin: _origin, overridesBuiltIn: _overrides, ...mode } = modeOrDefault(slug, modes, options.defaultSlug)
  const override = options.overrides?.[mode.slug]
  return {
    ...mode,
    roleDefinition: override?.roleDefinition || mode.roleDefinition,
    whenToUse: override?.whenToUse || mode.whenToUse,
    customInstructions: override?.customInstructions || mode.customInstructions
  }
}
