// A social feed: a "What's new?" composer with a Post button at the top, then the view's records as
// post cards (author avatar and name, time, text with #hashtags, like and comment counts). The post's
// text is the link that opens it; the open post shows its detail pane (comments: the view's
// `related`) on the right, where a "Trending" box of hashtags sits otherwise. "Like post by <author>"
// adds one like and marks the post liked; "Unlike post by <author>" takes it back.
//
// options (field keys of the view's entity):
//   text: the post's text field, typed into the composer (default: the entity's title)
//   author: the ref to people shown as the author (default: the first ref to the people entity)
//   time: the datetime shown (default: the first datetime field)
//   likes: the number field of likes (default "likes"); liked: the bool field "liked by me" (default "liked")
//   tags: a tags field filled from the #hashtags of a new post's text (default "tags")
//   set: fields of a new post besides the text, tokens allowed (default {author: $me, time: $now})
import { avatar, formatDate, formatTime, h, icon, toast } from "../../../_hub/static/dom.js";
import { addRecord, detailPane, recordLink, resolve, titleOf, visibleRecords } from "../core.js";

export const stylesheet = true;

function opts(ctx) {
  const { def, view } = ctx;
  const fields = def.entities[view.entity].fields;
  const first = (pred) => Object.entries(fields).find(([, f]) => pred(f))?.[0];
  const o = { text: def.entities[view.entity].title, likes: "likes", liked: "liked", tags: "tags",
    author: first((f) => f.type === "ref" && f.to === def.people), time: first((f) => f.type === "datetime"), ...view.options };
  o.set = view.options.set || { ...(o.author ? { [o.author]: "$me" } : {}), ...(o.time ? { [o.time]: "$now" } : {}) };
  return o;
}

const hashtags = (text) => [...new Set((String(text).match(/#[\p{L}\p{N}_-]+/gu) || []).map((t) => t.slice(1).toLowerCase()))];

function ago(def, iso) {
  const minutes = Math.round((Date.parse(def.seed.now) - Date.parse(iso)) / 60000);
  if (!Number.isFinite(minutes)) return "";
  if (minutes < 1) return "now";
  if (minutes < 60) return `${minutes}m`;
  if (minutes < 24 * 60) return `${Math.round(minutes / 60)}h`;
  return formatDate(iso);
}

function composer(ctx, o) {
  const { def, client, view } = ctx;
  const s = client.state;
  const me = s[def.people]?.[s.current_user];
  const box = h("textarea", { rows: 3, "aria-label": "What's new?", placeholder: "What's new?", maxlength: 500 });
  const post = () => {
    const text = box.value.trim();
    if (!text) return;
    const given = { [o.text]: text };
    for (const [k, v] of Object.entries(o.set)) given[k] = resolve(def, s, v, {});
    const fields = def.entities[view.entity].fields;
    if (o.tags in fields) given[o.tags] = hashtags(text);
    if (o.likes in fields) given[o.likes] = 0;
    if (o.liked in fields) given[o.liked] = false;
    client.commit((st) => addRecord(def, st, view.entity, given));
    toast("Posted", "success");
  };
  return h("section", { class: "composer-card", "aria-label": "New post" },
    avatar({ name: me?.name || titleOf(def, s, def.people, s.current_user).replace(/^@/, ""), color: me?.color }, 40),
    h("div", { class: "composer-main" }, box,
      h("div", { class: "composer-foot" }, h("span", { class: "muted" }, "Use #hashtags to reach more people"),
        h("button", { type: "button", class: "btn btn-primary post-btn", onclick: post }, "Post"))));
}

function postCard(ctx, o, id, r) {
  const { def, client, view } = ctx;
  const s = client.state;
  const fields = def.entities[view.entity].fields;
  const who = o.author && r[o.author] ? titleOf(def, s, def.people, r[o.author]) : "Someone";
  const person = o.author ? s[def.people]?.[r[o.author]] : null;
  const rel = view.related[0];
  const comments = rel ? Object.values(s[rel.entity] || {}).filter((c) => c[rel.via] === id).length : 0;
  const liked = !!r[o.liked];
  const like = () => client.commit((st) => {
    const p = st[view.entity][id];
    if (o.liked in fields) p[o.liked] = !liked;
    p[o.likes] = Math.max(0, (Number(p[o.likes]) || 0) + (liked ? -1 : 1));
  });
  return h("article", { class: `post${id === ctx.record ? " selected" : ""}`, "data-id": id },
    avatar({ name: person?.name || who.replace(/^@/, ""), color: person?.color }, 44),
    h("div", { class: "post-main" },
      h("header", { class: "post-head" }, h("strong", {}, who),
        person?.name && person.name !== who ? h("span", { class: "muted" }, person.name) : null,
        o.time && r[o.time] ? h("time", { class: "muted", datetime: r[o.time], title: `${formatDate(r[o.time], true)} ${formatTime(r[o.time])}` },
          `· ${ago(def, r[o.time])}`) : null),
      h("div", { class: "post-text" }, recordLink(ctx, view.entity, id, String(r[o.text] ?? ""))),
      o.tags in fields && (r[o.tags] || []).length ? h("div", { class: "post-tags" }, r[o.tags].map((t) => h("span", { class: "hashtag" }, `#${t}`))) : null,
      h("footer", { class: "post-actions" },
        h("a", { class: "post-act", href: `#/${view.id}/${encodeURIComponent(id)}`, "aria-label": `Comments on post by ${who}` },
          icon("message", 16), String(comments)),
        o.likes in fields ? h("button", { type: "button", class: `post-act like${liked ? " liked" : ""}`,
          "aria-label": `${liked ? "Unlike" : "Like"} post by ${who}`, onclick: like }, icon("star", 16), String(Number(r[o.likes]) || 0)) : null)));
}

function trending(ctx, o) {
  const { def, client, view } = ctx;
  const counts = {};
  if (o.tags in def.entities[view.entity].fields) {
    for (const r of Object.values(client.state[view.entity] || {})) for (const t of r[o.tags] || []) counts[t] = (counts[t] || 0) + 1;
  }
  const top = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 8);
  return h("aside", { class: "trending", "aria-label": "Trending" }, h("h2", {}, "Trending"),
    top.length ? top.map(([t, n]) => h("div", { class: "trend" }, h("strong", {}, `#${t}`), h("span", { class: "muted" }, `${n} post${n === 1 ? "" : "s"}`)))
      : h("p", { class: "muted" }, "Nothing trending yet."));
}

export function render(ctx) {
  const o = opts(ctx);
  const rows = visibleRecords(ctx);
  if (!ctx.view.sort && o.time) rows.sort(([, a], [, b]) => String(b[o.time]).localeCompare(String(a[o.time])));
  return h("div", { class: `view view-feed${ctx.record ? " with-detail" : ""}` },
    h("div", { class: "view-main feed-col" },
      h("h1", { class: "feed-title" }, ctx.view.label),
      composer(ctx, o),
      rows.length ? h("div", { class: "posts", "aria-label": "Posts" }, rows.map(([id, r]) => postCard(ctx, o, id, r)))
        : h("p", { class: "empty muted" }, "No posts match.")),
    ctx.record ? detailPane(ctx, ctx.view.entity, ctx.record, { related: ctx.view.related }) : trending(ctx, o));
}
