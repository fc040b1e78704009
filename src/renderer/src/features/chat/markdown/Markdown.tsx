import { memo, useState, type ReactNode } from 'react'
import { highlight } from './highlight'
import { parseMarkdown, type Block, type Inline } from './parse-markdown'
import './markdown.css'

/** Renders untrusted Markdown as React elements (never as HTML). Re-parses only when the text changes. */
export const Markdown = memo(function Markdown({ text }: { text: string }): ReactNode {
  return <div className="markdown">{renderBlocks(parsed(text))}</div>
})

// Rows of the windowed chat remount as they scroll back into view: keep recent parses.
const PARSE_CACHE_LIMIT = 400
const parseCache = new Map<string, Block[]>()

function parsed(text: string): Block[] {
  const hit = parseCache.get(text)
  if (hit) return hit
  const blocks = parseMarkdown(text)
  // Streaming text changes on every delta; only cache settled, reasonably sized texts.
  if (text.length < 50_000) {
    if (parseCache.size >= PARSE_CACHE_LIMIT) parseCache.delete(parseCache.keys().next().value!)
    parseCache.set(text, blocks)
  }
  return blocks
}

function renderBlocks(blocks: Block[]): ReactNode[] {
  return blocks.map((block, n) => <BlockView key={n} block={block} />)
}

function BlockView({ block }: { block: Block }): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p>{renderInline(block.children)}</p>
    case 'heading': {
      const Tag = `h${Math.min(6, block.level + 2)}` as 'h3'
      return <Tag className={`md-h${block.level}`}>{renderInline(block.children)}</Tag>
    }
    case 'code':
      return <CodeBlock lang={block.lang} text={block.text} />
    case 'list': {
      const items = block.items.map((item, n) => <li key={n}>{renderBlocks(item)}</li>)
      return block.ordered ? <ol start={block.start}>{items}</ol> : <ul>{items}</ul>
    }
    case 'quote':
      return <blockquote>{renderBlocks(block.children)}</blockquote>
    case 'hr':
      return <hr />
    case 'table':
      return (
        <div className="md-table">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, n) => (
                  <th key={n} style={{ textAlign: block.align[n] ?? undefined }}>
                    {renderInline(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, n) => (
                    <td key={n} style={{ textAlign: block.align[n] ?? undefined }}>
                      {renderInline(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )
  }
}

function renderInline(nodes: Inline[]): ReactNode[] {
  return nodes.map((node, n) => {
    switch (node.type) {
      case 'text':
        return node.text
      case 'code':
        return <code key={n}>{node.text}</code>
      case 'strong':
        return <strong key={n}>{renderInline(node.children)}</strong>
      case 'em':
        return <em key={n}>{renderInline(node.children)}</em>
      case 'del':
        return <del key={n}>{renderInline(node.children)}</del>
      case 'br':
        return <br key={n} />
      case 'link':
        return (
          <a key={n} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
            {renderInline(node.children)}
          </a>
        )
    }
  })
}

function CodeBlock({ lang, text }: { lang: string; text: string }): ReactNode {
  const [copied, setCopied] = useState(false)
  const copy = (): void => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false)
    )
  }
  return (
    <div className="md-code">
      <div className="md-code-bar">
        <span>{lang || 'text'}</span>
        <button type="button" className="link" onClick={copy} aria-label={`Copy ${lang || 'code'} block`}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code data-lang={lang}>
          {highlight(text, lang).map((token, n) =>
            token.kind === 'plain' ? (
              token.text
            ) : (
              <span key={n} className={`tok-${token.kind}`}>
                {token.text}
              </span>
            )
          )}
        </code>
      </pre>
    </div>
  )
}
