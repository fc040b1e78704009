import { sharedDir, sharedPresent } from './shared-dir'

/** Says once, up front, why the suites that read ../shared are skipped in a clone without it. */
export default function reportShared(): void {
  if (!sharedPresent) {
    console.log(
      `\n../shared not present (${sharedDir}): the Roo conformance, LLM wire-fixture and workload suites are skipped.\n`
    )
  }
}
