//! Just enough Markdown for the rules' docs (headings, paragraphs, lists, code blocks, `code` and
//! `<links>`), rendered as Yew nodes: no HTML string ever reaches the DOM.

use yew::prelude::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    Heading(usize, String),
    Paragraph(String),
    List(Vec<String>),
    Code(String),
}

pub fn parse(md: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut para: Vec<&str> = Vec::new();
    let mut list: Vec<String> = Vec::new();
    let mut code: Option<Vec<&str>> = None;
    let flush = |para: &mut Vec<&str>, list: &mut Vec<String>, blocks: &mut Vec<Block>| {
        if !para.is_empty() {
            blocks.push(Block::Paragraph(para.join(" ")));
            para.clear();
        }
        if !list.is_empty() {
            blocks.push(Block::List(std::mem::take(list)));
        }
    };
    for line in md.lines() {
        if let Some(c) = code.as_mut() {
            if line.trim_start().starts_with("```") {
                blocks.push(Block::Code(c.join("\n")));
                code = None;
            } else {
                c.push(line);
            }
            continue;
        }
        let t = line.trim();
        if t.starts_with("```") {
            flush(&mut para, &mut list, &mut blocks);
            code = Some(Vec::new());
        } else if t.is_empty() {
            flush(&mut para, &mut list, &mut blocks);
        } else if let Some(h) = t.strip_prefix('#') {
            flush(&mut para, &mut list, &mut blocks);
            let level = 1 + h.chars().take_while(|c| *c == '#').count();
            blocks.push(Block::Heading(level, h.trim_start_matches('#').trim().to_owned()));
        } else if let Some(item) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
            if !para.is_empty() {
                blocks.push(Block::Paragraph(para.join(" ")));
                para.clear();
            }
            list.push(item.to_owned());
        } else if !list.is_empty() && line.starts_with("  ") {
            if let Some(last) = list.last_mut() {
                last.push(' ');
                last.push_str(t);
            }
        } else {
            if !list.is_empty() {
                blocks.push(Block::List(std::mem::take(&mut list)));
            }
            para.push(t);
        }
    }
    if let Some(c) = code {
        blocks.push(Block::Code(c.join("\n")));
    }
    flush(&mut para, &mut list, &mut blocks);
    blocks
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inline {
    Text(String),
    Code(String),
    Link(String),
    Em(String),
    Strong(String),
}

/// `**strong**` and `*emphasis*` in plain text (an opening `*` is followed, and a closing one preceded, by
/// a non-space; a lone `*` stays text).
fn emphasis(text: &str, out: &mut Vec<Inline>) {
    let mut rest = text;
    let mut plain = String::new();
    while let Some(at) = rest.find('*') {
        let (before, after) = rest.split_at(at);
        plain.push_str(before);
        let strong = after.starts_with("**");
        let mark = if strong { "**" } else { "*" };
        let inner_start = after.get(mark.len()..).unwrap_or_default();
        let close = inner_start.find(mark).filter(|&end| {
            end > 0 && !inner_start.starts_with(' ') && !inner_start.get(..end).unwrap_or_default().ends_with(' ')
        });
        match close {
            Some(end) => {
                if !plain.is_empty() {
                    out.push(Inline::Text(std::mem::take(&mut plain)));
                }
                let inner = inner_start.get(..end).unwrap_or_default().to_owned();
                out.push(if strong { Inline::Strong(inner) } else { Inline::Em(inner) });
                rest = inner_start.get(end + mark.len()..).unwrap_or_default();
            }
            None => {
                plain.push_str(mark);
                rest = inner_start;
            }
        }
    }
    plain.push_str(rest);
    if !plain.is_empty() {
        out.push(Inline::Text(plain));
    }
}

pub fn inlines(text: &str) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let next_code = rest.find('`');
        let next_link = rest.find("<http");
        match (next_code, next_link) {
            (Some(c), l) if l.is_none_or(|l| c < l) => {
                let (before, after) = rest.split_at(c);
                let after = after.get(1..).unwrap_or_default();
                match after.find('`') {
                    Some(end) => {
                        if !before.is_empty() {
                            out.push(Inline::Text(before.to_owned()));
                        }
                        out.push(Inline::Code(after.get(..end).unwrap_or_default().to_owned()));
                        rest = after.get(end + 1..).unwrap_or_default();
                    }
                    None => {
                        out.push(Inline::Text(rest.to_owned()));
                        rest = "";
                    }
                }
            }
            (_, Some(l)) => {
                let (before, after) = rest.split_at(l);
                match after.find('>') {
                    Some(end) => {
                        if !before.is_empty() {
                            out.push(Inline::Text(before.to_owned()));
                        }
                        out.push(Inline::Link(after.get(1..end).unwrap_or_default().to_owned()));
                        rest = after.get(end + 1..).unwrap_or_default();
                    }
                    None => {
                        out.push(Inline::Text(rest.to_owned()));
                        rest = "";
                    }
                }
            }
            _ => {
                out.push(Inline::Text(rest.to_owned()));
                rest = "";
            }
        }
    }
    let mut with_emphasis = Vec::with_capacity(out.len());
    for i in out {
        match i {
            Inline::Text(t) => emphasis(&t, &mut with_emphasis),
            other => with_emphasis.push(other),
        }
    }
    with_emphasis
}

fn inline_html(text: &str) -> Html {
    inlines(text)
        .into_iter()
        .map(|i| match i {
            Inline::Text(t) => html! { {t} },
            Inline::Code(c) => html! { <code>{c}</code> },
            Inline::Em(t) => html! { <em>{t}</em> },
            Inline::Strong(t) => html! { <strong>{t}</strong> },
            Inline::Link(href) => html! { <a href={href.clone()} target="_blank" rel="noopener noreferrer">{href}</a> },
        })
        .collect()
}

/// Render Markdown; headings are shifted down by `shift` levels to sit under the page's own.
pub fn render(md: &str, shift: usize) -> Html {
    parse(md)
        .into_iter()
        .map(|b| match b {
            Block::Heading(level, t) => match (level + shift).min(6) {
                1 => html! { <h1>{inline_html(&t)}</h1> },
                2 => html! { <h2>{inline_html(&t)}</h2> },
                3 => html! { <h3>{inline_html(&t)}</h3> },
                4 => html! { <h4>{inline_html(&t)}</h4> },
                5 => html! { <h5>{inline_html(&t)}</h5> },
                _ => html! { <h6>{inline_html(&t)}</h6> },
            },
            Block::Paragraph(t) => html! { <p>{inline_html(&t)}</p> },
            Block::List(items) => {
                html! { <ul>{ for items.iter().map(|i| html! { <li>{inline_html(i)}</li> }) }</ul> }
            }
            Block::Code(c) => html! { <pre><code>{c}</code></pre> },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emphasis_and_strong_but_not_a_lone_star() {
        assert_eq!(
            inlines("a *b* and **c** then `*d*` 2 * 3"),
            [
                Inline::Text("a ".into()),
                Inline::Em("b".into()),
                Inline::Text(" and ".into()),
                Inline::Strong("c".into()),
                Inline::Text(" then ".into()),
                Inline::Code("*d*".into()),
                Inline::Text(" 2 * 3".into()),
            ]
        );
    }

    #[test]
    fn blocks_and_inlines() {
        let md = "## What it checks\nLine one\ncontinues `here`.\n\n- a <https://k8s.io/x>\n- b\n  wrapped\n\n```\ncode\n```\n";
        let b = parse(md);
        assert_eq!(b[0], Block::Heading(2, "What it checks".into()));
        assert_eq!(b[1], Block::Paragraph("Line one continues `here`.".into()));
        assert_eq!(b[2], Block::List(vec!["a <https://k8s.io/x>".into(), "b wrapped".into()]));
        assert_eq!(b[3], Block::Code("code".into()));
        assert_eq!(
            inlines("x `y` <https://a.b> z"),
            vec![
                Inline::Text("x ".into()),
                Inline::Code("y".into()),
                Inline::Text(" ".into()),
                Inline::Link("https://a.b".into()),
                Inline::Text(" z".into())
            ]
        );
        assert_eq!(inlines("unclosed `x"), vec![Inline::Text("unclosed `x".into())]);
    }
}
