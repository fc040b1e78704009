import { capText, MentionRefused, type MentionExpander } from './mention-kinds'

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0]

/**
 * `@https://…`: the page as Markdown. It is opened as browser_action launch opens one: the mode's
 * policy decides, and when it asks the user answers in the approval queue before anything loads.
 */
export const urlMention: MentionExpander<'url'> = async (mention, scope, services) => {
  if (!services.fetchPage) throw new MentionRefused('pages cannot be fetched here (no browser in this host).')
  const approval = await scope.approveUrl(mention.url)
  if (!approval.approved) throw new MentionRefused(`the page was not opened: ${approval.reason}`)
  let page: Awaited<ReturnType<NonNullable<typeof services.fetchPage>>>
  try {
    page = await services.fetchPage(scope.taskId, mention.url, scope.checkPage, scope.signal)
  } catch (error) {
    throw new MentionRefused(`the page could not be fetched: ${firstLine(error)}`)
  }
  if (page.status !== null && page.status >= 400) {
    throw new MentionRefused(`the page answered HTTP ${page.status}.`)
  }
  const header = `Page: ${page.finalUrl}${page.status === null ? '' : ` (HTTP ${page.status})`}`
  const body = page.markdown === '' ? '(the page has no text)' : page.markdown
  return capText(`${header}\n\n${body}`, 'The page', 'browser_action can read on.')
}
