// Realistic multi-step tasks over the real-16 catalog, for the token-footprint bench (tokens.ts).
// Each task names the tools a model would call, with their arguments and a small representative
// result (the JSON a real server answers with, trimmed to a few records), the code-mode script
// that makes the same calls in the same order, the searchTools queries a model would send to
// find those tools, and the final answer. tokens.ts runs every script in the real interpreter
// against these recorded results and checks that it makes exactly these calls.
//
// `round` is the first benchmark round whose servers cover the task: 6 (github, firecrawl,
// filesystem, everything, memory, slack), 11 (+ shortcut, mongodb, playwright, notion,
// kubernetes) or 16 (+ gitlab, ms365, chrome_devtools, antv_chart, brave_search).

export interface ToolCall {
  server: string;
  /** The upstream tool name (as a classic client sees it). */
  tool: string;
  args: Record<string, unknown>;
  /** What the tool answers (sent as one JSON text block). */
  result: unknown;
}

export interface Task {
  id: string;
  round: 6 | 11 | 16;
  prompt: string;
  calls: ToolCall[];
  script: string;
  searches: string[];
  answer: string;
}

const call = (server: string, tool: string, args: Record<string, unknown>, result: unknown): ToolCall => ({ server, tool, args, result });
const lines = (...l: string[]) => l.join("\n");
/**
 * The answer of a tool that declares an outputSchema: its text and the structuredContent MCP
 * requires with it (what the script gets, so it reads the declared keys).
 */
const structured = (text: string, structuredContent: Record<string, unknown>) => ({ content: [{ type: "text", text }], structuredContent });
/** What server-filesystem answers: the text, and the same text as `{"content": text}`. */
const fsText = (text: string) => structured(text, { content: text });
/** memory's create_entities: it answers with the entities it created (all of them, here). */
const createEntities = (entities: Record<string, unknown>[], text: string) => call("memory", "create_entities", { entities }, structured(text, { entities }));
/** What mongodb's aggregate answers: the documents, their count and the limits applied (none here). */
const aggregated = (documents: Record<string, unknown>[]) => structured(JSON.stringify(documents), { documents, count: documents.length, appliedLimits: [] });

// ------------------------------------------------------------------ shared records

const WEBAPP_BUGS = [
  { number: 412, title: "Login fails with SSO when the email contains +", state: "open", labels: [{ name: "bug" }], user: { login: "mchen" }, assignee: { login: "jdoe" }, comments: 7, created_at: "2026-11-20T09:14:00Z", html_url: "https://github.com/acme/webapp/issues/412" },
  { number: 418, title: "Export to CSV drops the last row", state: "open", labels: [{ name: "bug" }], user: { login: "apatel" }, assignee: { login: "lkim" }, comments: 2, created_at: "2026-11-22T15:40:00Z", html_url: "https://github.com/acme/webapp/issues/418" },
  { number: 421, title: "Dark mode: unreadable tooltips on charts", state: "open", labels: [{ name: "bug" }, { name: "ui" }], user: { login: "rsilva" }, assignee: null, comments: 11, created_at: "2026-11-24T11:02:00Z", html_url: "https://github.com/acme/webapp/issues/421" },
  { number: 425, title: "Session expires during long uploads", state: "open", labels: [{ name: "bug" }], user: { login: "mchen" }, assignee: { login: "jdoe" }, comments: 4, created_at: "2026-11-27T08:30:00Z", html_url: "https://github.com/acme/webapp/issues/425" },
];

const SLACK_CHANNELS = {
  ok: true,
  channels: [
    { id: "C01GENERAL", name: "general", is_channel: true, num_members: 182, topic: { value: "Company-wide announcements" } },
    { id: "C02ENGTRI", name: "eng-triage", is_channel: true, num_members: 14, topic: { value: "Bug triage, daily at 10:00" } },
    { id: "C03INCID", name: "incidents", is_channel: true, num_members: 41, topic: { value: "Production incidents" } },
    { id: "C04RELEASE", name: "releases", is_channel: true, num_members: 57, topic: { value: "Release coordination" } },
  ],
  response_metadata: { next_cursor: "" },
};

const posted = (channel: string, ts: string, text: string) => ({ ok: true, channel, ts, message: { type: "message", user: "U0BOT", text, ts } });

// ------------------------------------------------------------------ round 6

const bugSummary = lines("Open bugs in acme/webapp (4):", ...WEBAPP_BUGS.map((i) => `#${i.number} ${i.title}`));
const prFiles = [
  { filename: "src/billing/invoice.ts", status: "modified", additions: 48, deletions: 12, changes: 60 },
  { filename: "src/billing/tax.ts", status: "added", additions: 95, deletions: 0, changes: 95 },
  { filename: "test/billing/tax.test.ts", status: "added", additions: 120, deletions: 0, changes: 120 },
];
const changelog = lines(
  "# Changelog",
  "",
  "## 2.4.0 - 2026-11-28",
  "- Invoices show tax per line",
  "- Faster CSV export",
  "",
  "## 2.3.2 - 2026-11-10",
  "- Fix SSO login for emails with +",
);
const oncall = { week: "2026-W49", primary: "U07ALICE", secondary: "U08BOB", escalation: "U09CARA" };
const scraped = lines(
  "# Release notes",
  "",
  "## v5.2 (November 26, 2026)",
  "- Streaming responses for batch jobs",
  "- Regional endpoints in eu-west-2",
  "",
  "## v5.1 (October 30, 2026)",
  "- New rate-limit headers",
);
const releaseNotes = lines("## v5.2 (November 26, 2026)", "- Streaming responses for batch jobs", "- Regional endpoints in eu-west-2");

const ROUND_6: Task[] = [
  {
    id: "bugs-to-slack",
    round: 6,
    prompt: "Post the list of open bugs in acme/webapp to the #eng-triage Slack channel.",
    calls: [
      call("github", "list_issues", { owner: "acme", repo: "webapp", state: "open", labels: ["bug"] }, WEBAPP_BUGS),
      call("slack", "slack_list_channels", { limit: 200 }, SLACK_CHANNELS),
      call("slack", "slack_post_message", { channel_id: "C02ENGTRI", text: bugSummary }, posted("C02ENGTRI", "1764412345.000200", bugSummary)),
    ],
    script: lines(
      'issues = github.list_issues(owner="acme", repo="webapp", state="open", labels=["bug"])',
      "channels = slack.slack_list_channels(limit=200)['channels']",
      "channel = [c for c in channels if c['name'] == 'eng-triage'][0]",
      'text = f"Open bugs in acme/webapp ({len(issues)}):\\n" + "\\n".join(f"#{i[\'number\']} {i[\'title\']}" for i in issues)',
      "sent = slack.slack_post_message(channel_id=channel['id'], text=text)",
      "RESULT = {'posted': sent['ok'], 'bugs': len(issues)}",
    ),
    searches: ["list issues in a github repository", "list slack channels", "post a message to a slack channel"],
    answer: "Posted the 4 open bugs (#412, #418, #421, #425) to #eng-triage.",
  },
  {
    id: "pr-review-summary",
    round: 6,
    prompt: "Is PR #87 in acme/api ready to merge? Check its files, status checks and reviews.",
    calls: [
      call("github", "get_pull_request", { owner: "acme", repo: "api", pull_number: 87 }, { number: 87, title: "Tax per invoice line", state: "open", draft: false, mergeable: true, user: { login: "lkim" }, head: { ref: "feature/line-tax", sha: "9f2c1e7" }, base: { ref: "main" }, additions: 263, deletions: 12, changed_files: 3 }),
      call("github", "get_pull_request_files", { owner: "acme", repo: "api", pull_number: 87 }, prFiles),
      call("github", "get_pull_request_status", { owner: "acme", repo: "api", pull_number: 87 }, { state: "success", total_count: 3, statuses: [{ context: "ci/test", state: "success" }, { context: "ci/lint", state: "success" }, { context: "coverage", state: "success", description: "87.2% (+0.4%)" }] }),
      call("github", "get_pull_request_reviews", { owner: "acme", repo: "api", pull_number: 87 }, [{ id: 5501, user: { login: "jdoe" }, state: "APPROVED", submitted_at: "2026-11-28T16:20:00Z" }, { id: 5507, user: { login: "apatel" }, state: "COMMENTED", body: "Nit: rename calcTax", submitted_at: "2026-11-28T17:05:00Z" }]),
    ],
    script: lines(
      'pr = github.get_pull_request(owner="acme", repo="api", pull_number=87)',
      'files = github.get_pull_request_files(owner="acme", repo="api", pull_number=87)',
      'status = github.get_pull_request_status(owner="acme", repo="api", pull_number=87)',
      'reviews = github.get_pull_request_reviews(owner="acme", repo="api", pull_number=87)',
      "RESULT = {",
      "    'title': pr['title'], 'mergeable': pr['mergeable'], 'draft': pr['draft'],",
      "    'files': [f['filename'] for f in files], 'checks': status['state'],",
      "    'approved_by': [r['user']['login'] for r in reviews if r['state'] == 'APPROVED'],",
      "    'changes_requested': [r['user']['login'] for r in reviews if r['state'] == 'CHANGES_REQUESTED'],",
      "}",
    ),
    searches: ["get a pull request", "files changed in a pull request", "status checks of a pull request", "reviews on a pull request"],
    answer: "PR #87 is ready: mergeable, all 3 checks green, approved by jdoe (one nit from apatel), 3 files changed.",
  },
  {
    id: "scrape-release-notes",
    round: 6,
    prompt: "Fetch the latest release notes from https://docs.example.com/releases and save them to /workspace/notes/vendor-release.md.",
    calls: [
      call("firecrawl", "firecrawl_scrape", { url: "https://docs.example.com/releases", formats: ["markdown"], onlyMainContent: true }, { markdown: scraped, metadata: { title: "Release notes", sourceURL: "https://docs.example.com/releases", statusCode: 200 } }),
      call("filesystem", "write_file", { path: "/workspace/notes/vendor-release.md", content: releaseNotes }, fsText("Successfully wrote to /workspace/notes/vendor-release.md")),
    ],
    script: lines(
      'page = firecrawl.firecrawl_scrape(url="https://docs.example.com/releases", formats=["markdown"], onlyMainContent=True)',
      "sections = page['markdown'].split('\\n## ')",
      "latest = '## ' + sections[1].strip()",
      'filesystem.write_file(path="/workspace/notes/vendor-release.md", content=latest)',
      "RESULT = latest.splitlines()[0]",
    ),
    searches: ["scrape a web page as markdown", "write a file"],
    answer: "Saved the v5.2 notes (26 Nov 2026: streaming responses for batch jobs, eu-west-2 endpoints) to /workspace/notes/vendor-release.md.",
  },
  {
    id: "todo-scan",
    round: 6,
    prompt: "Count the TODO comments in the Python files under /workspace/app and write a report to /workspace/app/TODO_REPORT.md.",
    calls: [
      call("filesystem", "search_files", { path: "/workspace/app", pattern: "*.py" }, fsText("/workspace/app/main.py\n/workspace/app/models.py\n/workspace/app/billing.py")),
      call("filesystem", "read_multiple_files", { paths: ["/workspace/app/main.py", "/workspace/app/models.py", "/workspace/app/billing.py"] }, fsText("/workspace/app/main.py:\nimport app\n# TODO: config from env\napp.run()\n\n---\n/workspace/app/models.py:\nclass User:\n    # TODO: email index\n    # TODO: soft delete\n    pass\n\n---\n/workspace/app/billing.py:\ndef total(lines):\n    return sum(lines)\n")),
      call("filesystem", "write_file", { path: "/workspace/app/TODO_REPORT.md", content: "# TODO report\n\n- /workspace/app/main.py: 1\n- /workspace/app/models.py: 2\n- /workspace/app/billing.py: 0\n\nTotal: 3" }, fsText("Successfully wrote to /workspace/app/TODO_REPORT.md")),
    ],
    script: lines(
      'paths = filesystem.search_files(path="/workspace/app", pattern="*.py")["content"].splitlines()',
      "text = filesystem.read_multiple_files(paths=paths)['content']",
      "counts = {}",
      "for block in text.split('\\n---\\n'):",
      "    name, _, body = block.strip().partition(':\\n')",
      "    counts[name] = body.count('# TODO')",
      "report = '# TODO report\\n\\n' + '\\n'.join(f'- {p}: {n}' for p, n in counts.items()) + f'\\n\\nTotal: {sum(counts.values())}'",
      'filesystem.write_file(path="/workspace/app/TODO_REPORT.md", content=report)',
      "RESULT = counts",
    ),
    searches: ["search files matching a pattern", "read several files at once", "write a file"],
    answer: "3 TODOs: main.py 1, models.py 2, billing.py 0. Report written to /workspace/app/TODO_REPORT.md.",
  },
  {
    id: "issue-owners-to-memory",
    round: 6,
    prompt: "Remember who reported and who owns the two most-discussed open bugs in acme/webapp.",
    calls: [
      call("github", "list_issues", { owner: "acme", repo: "webapp", state: "open", labels: ["bug"], sort: "comments", direction: "desc", per_page: 2 }, [WEBAPP_BUGS[2], WEBAPP_BUGS[0]]),
      createEntities([{ name: "acme/webapp#421", entityType: "issue", observations: ["Dark mode: unreadable tooltips on charts", "11 comments"] }, { name: "acme/webapp#412", entityType: "issue", observations: ["Login fails with SSO when the email contains +", "7 comments"] }], "[{\"name\":\"acme/webapp#421\",\"entityType\":\"issue\"},{\"name\":\"acme/webapp#412\",\"entityType\":\"issue\"}]"),
      call("memory", "create_relations", { relations: [{ from: "rsilva", to: "acme/webapp#421", relationType: "reported" }, { from: "mchen", to: "acme/webapp#412", relationType: "reported" }, { from: "jdoe", to: "acme/webapp#412", relationType: "owns" }] }, structured("3 relations created", { relations: [{ from: "rsilva", to: "acme/webapp#421", relationType: "reported" }, { from: "mchen", to: "acme/webapp#412", relationType: "reported" }, { from: "jdoe", to: "acme/webapp#412", relationType: "owns" }] })),
    ],
    script: lines(
      'issues = github.list_issues(owner="acme", repo="webapp", state="open", labels=["bug"], sort="comments", direction="desc", per_page=2)',
      "entities = [{'name': f\"acme/webapp#{i['number']}\", 'entityType': 'issue', 'observations': [i['title'], f\"{i['comments']} comments\"]} for i in issues]",
      "memory.create_entities(entities=entities)",
      "relations = []",
      "for i in issues:",
      "    relations.append({'from': i['user']['login'], 'to': f\"acme/webapp#{i['number']}\", 'relationType': 'reported'})",
      "    if i['assignee']:",
      "        relations.append({'from': i['assignee']['login'], 'to': f\"acme/webapp#{i['number']}\", 'relationType': 'owns'})",
      "memory.create_relations(relations=relations)",
      "RESULT = [e['name'] for e in entities]",
    ),
    searches: ["list issues in a github repository", "create entities in the knowledge graph", "create relations between entities"],
    answer: "Stored #421 (reported by rsilva, unassigned) and #412 (reported by mchen, owned by jdoe) in memory.",
  },
  {
    id: "incident-thread-to-issue",
    round: 6,
    prompt: "Summarize the latest thread in #incidents as a comment on issue #425 in acme/webapp.",
    calls: [
      call("slack", "slack_get_channel_history", { channel_id: "C03INCID", limit: 5 }, { ok: true, messages: [{ ts: "1764400000.000100", user: "U07ALICE", text: "Uploads over 2 GB fail with 401 after ~15 min", reply_count: 3 }, { ts: "1764390000.000300", user: "U08BOB", text: "Deploy 2.3.2 done", reply_count: 0 }] }),
      call("slack", "slack_get_thread_replies", { channel_id: "C03INCID", thread_ts: "1764400000.000100" }, { ok: true, messages: [{ ts: "1764400000.000100", user: "U07ALICE", text: "Uploads over 2 GB fail with 401 after ~15 min" }, { ts: "1764400100.000200", user: "U08BOB", text: "Token TTL is 15 min and the upload does not refresh it" }, { ts: "1764400200.000300", user: "U09CARA", text: "Workaround: raise TTL to 60 min for upload scopes" }, { ts: "1764400300.000400", user: "U07ALICE", text: "Applied, monitoring" }] }),
      call("github", "add_issue_comment", { owner: "acme", repo: "webapp", issue_number: 425, body: "From #incidents: Uploads over 2 GB fail with 401 after ~15 min\n- Token TTL is 15 min and the upload does not refresh it\n- Workaround: raise TTL to 60 min for upload scopes\n- Applied, monitoring" }, { id: 90211, html_url: "https://github.com/acme/webapp/issues/425#issuecomment-90211", created_at: "2026-11-29T10:00:00Z" }),
    ],
    script: lines(
      'history = slack.slack_get_channel_history(channel_id="C03INCID", limit=5)',
      "thread = [m for m in history['messages'] if m.get('reply_count')][0]",
      "replies = slack.slack_get_thread_replies(channel_id=\"C03INCID\", thread_ts=thread['ts'])['messages']",
      "body = 'From #incidents: ' + replies[0]['text'] + '\\n' + '\\n'.join('- ' + r['text'] for r in replies[1:])",
      'comment = github.add_issue_comment(owner="acme", repo="webapp", issue_number=425, body=body)',
      "RESULT = comment['html_url']",
    ),
    searches: ["recent messages in a slack channel", "replies in a slack thread", "comment on a github issue"],
    answer: "Added the incident summary (token TTL too short for long uploads; TTL raised to 60 min) to #425.",
  },
  {
    id: "research-sources",
    round: 6,
    prompt: "Search the web for 'MCP code mode token savings' and remember the three best sources.",
    calls: [
      call("firecrawl", "firecrawl_search", { query: "MCP code mode token savings", limit: 3 }, { web: [{ url: "https://blog.example.dev/code-mode", title: "Code mode: let the model write code", description: "Tool calls as code cut tokens by 80%." }, { url: "https://example.org/mcp-bench", title: "Benchmarking MCP gateways", description: "Tokens and latency at 500 tools." }, { url: "https://news.example.com/agents-tools", title: "Agents drown in tool definitions", description: "Why large tool lists hurt accuracy." }] }),
      createEntities([{ name: "https://blog.example.dev/code-mode", entityType: "source", observations: ["Code mode: let the model write code", "Tool calls as code cut tokens by 80%."] }, { name: "https://example.org/mcp-bench", entityType: "source", observations: ["Benchmarking MCP gateways", "Tokens and latency at 500 tools."] }, { name: "https://news.example.com/agents-tools", entityType: "source", observations: ["Agents drown in tool definitions", "Why large tool lists hurt accuracy."] }], "3 entities created"),
    ],
    script: lines(
      'hits = firecrawl.firecrawl_search(query="MCP code mode token savings", limit=3)["web"]',
      "memory.create_entities(entities=[{'name': h['url'], 'entityType': 'source', 'observations': [h['title'], h['description']]} for h in hits])",
      "RESULT = [h['title'] for h in hits]",
    ),
    searches: ["search the web", "create entities in the knowledge graph"],
    answer: "Remembered 3 sources: 'Code mode: let the model write code', 'Benchmarking MCP gateways', 'Agents drown in tool definitions'.",
  },
  {
    id: "compare-repos",
    round: 6,
    prompt: "Find the three most-starred GitHub repositories about 'mcp gateway' and tell me when each last had a commit.",
    calls: [
      call("github", "search_repositories", { query: "mcp gateway sort:stars", perPage: 3 }, { total_count: 412, items: [{ full_name: "toolhive/gateway", stargazers_count: 5120, owner: { login: "toolhive" }, name: "gateway" }, { full_name: "mcpx/mcpx", stargazers_count: 3310, owner: { login: "mcpx" }, name: "mcpx" }, { full_name: "lunar/mcp-proxy", stargazers_count: 1875, owner: { login: "lunar" }, name: "mcp-proxy" }] }),
      call("github", "list_commits", { owner: "toolhive", repo: "gateway", perPage: 1 }, [{ sha: "a1b2c3d", commit: { message: "Release 1.9.0", author: { name: "Ann", date: "2026-11-28T19:22:00Z" } } }]),
      call("github", "list_commits", { owner: "mcpx", repo: "mcpx", perPage: 1 }, [{ sha: "d4e5f6a", commit: { message: "Fix SSE reconnect", author: { name: "Raj", date: "2026-11-12T07:45:00Z" } } }]),
      call("github", "list_commits", { owner: "lunar", repo: "mcp-proxy", perPage: 1 }, [{ sha: "b7c8d9e", commit: { message: "Bump deps", author: { name: "Lee", date: "2026-09-30T13:10:00Z" } } }]),
    ],
    script: lines(
      'repos = github.search_repositories(query="mcp gateway sort:stars", perPage=3)["items"]',
      "RESULT = []",
      "for r in repos:",
      "    last = github.list_commits(owner=r['owner']['login'], repo=r['name'], perPage=1)[0]",
      "    RESULT.append({'repo': r['full_name'], 'stars': r['stargazers_count'], 'last_commit': last['commit']['author']['date'][:10]})",
    ),
    searches: ["search github repositories", "list commits of a repository"],
    answer: "toolhive/gateway (5,120 stars, last commit 2026-11-28), mcpx/mcpx (3,310, 2026-11-12), lunar/mcp-proxy (1,875, 2026-09-30).",
  },
  {
    id: "release-branch-pr",
    round: 6,
    prompt: "Cut a release/2.4 branch in acme/webapp, add the 2.4.0 entry to CHANGELOG.md on it, and open a PR to main.",
    calls: [
      call("github", "get_file_contents", { owner: "acme", repo: "webapp", path: "CHANGELOG.md" }, { name: "CHANGELOG.md", path: "CHANGELOG.md", sha: "3c9d0aa", size: 118, encoding: "utf-8", content: changelog.replace("## 2.4.0 - 2026-11-28\n- Invoices show tax per line\n- Faster CSV export\n\n", "") }),
      call("github", "create_branch", { owner: "acme", repo: "webapp", branch: "release/2.4", from_branch: "main" }, { ref: "refs/heads/release/2.4", object: { sha: "77ab01c", type: "commit" } }),
      call("github", "create_or_update_file", { owner: "acme", repo: "webapp", path: "CHANGELOG.md", content: changelog, message: "Changelog for 2.4.0", branch: "release/2.4", sha: "3c9d0aa" }, { content: { path: "CHANGELOG.md", sha: "5e1f2b3" }, commit: { sha: "c0ffee1", message: "Changelog for 2.4.0" } }),
      call("github", "create_pull_request", { owner: "acme", repo: "webapp", title: "Release 2.4.0", head: "release/2.4", base: "main", body: "- Invoices show tax per line\n- Faster CSV export" }, { number: 431, html_url: "https://github.com/acme/webapp/pull/431", state: "open" }),
    ],
    script: lines(
      'current = github.get_file_contents(owner="acme", repo="webapp", path="CHANGELOG.md")',
      "entry = '## 2.4.0 - 2026-11-28\\n- Invoices show tax per line\\n- Faster CSV export\\n\\n'",
      "head, _, rest = current['content'].partition('\\n\\n')",
      "updated = head + '\\n\\n' + entry + rest",
      'github.create_branch(owner="acme", repo="webapp", branch="release/2.4", from_branch="main")',
      'github.create_or_update_file(owner="acme", repo="webapp", path="CHANGELOG.md", content=updated, message="Changelog for 2.4.0", branch="release/2.4", sha=current["sha"])',
      'pr = github.create_pull_request(owner="acme", repo="webapp", title="Release 2.4.0", head="release/2.4", base="main", body="- Invoices show tax per line\\n- Faster CSV export")',
      "RESULT = pr['html_url']",
    ),
    searches: ["get the contents of a file in a github repository", "create a branch", "create or update a file in a repository", "open a pull request"],
    answer: "Branch release/2.4 created, CHANGELOG.md updated, PR #431 opened against main.",
  },
  {
    id: "oncall-dm",
    round: 6,
    prompt: "Read /workspace/oncall.json and post this week's on-call names to #releases.",
    calls: [
      call("filesystem", "read_text_file", { path: "/workspace/oncall.json" }, fsText(JSON.stringify(oncall))),
      call("slack", "slack_get_users", { limit: 200 }, { ok: true, members: [{ id: "U07ALICE", name: "alice", real_name: "Alice Moreau", tz: "Europe/Paris" }, { id: "U08BOB", name: "bob", real_name: "Bob Okafor", tz: "Europe/London" }, { id: "U09CARA", name: "cara", real_name: "Cara Lindqvist", tz: "Europe/Stockholm" }, { id: "U10DAN", name: "dan", real_name: "Dan Wu", tz: "America/New_York" }] }),
      call("slack", "slack_post_message", { channel_id: "C04RELEASE", text: "On call 2026-W49: primary Alice Moreau, secondary Bob Okafor, escalation Cara Lindqvist" }, posted("C04RELEASE", "1764413000.000100", "On call 2026-W49: primary Alice Moreau, secondary Bob Okafor, escalation Cara Lindqvist")),
    ],
    script: lines(
      'import json',
      'rota = json.loads(filesystem.read_text_file(path="/workspace/oncall.json")["content"])',
      "names = {u['id']: u['real_name'] for u in slack.slack_get_users(limit=200)['members']}",
      "text = f\"On call {rota['week']}: primary {names[rota['primary']]}, secondary {names[rota['secondary']]}, escalation {names[rota['escalation']]}\"",
      'slack.slack_post_message(channel_id="C04RELEASE", text=text)',
      "RESULT = text",
    ),
    searches: ["read a text file", "list slack users", "post a message to a slack channel"],
    answer: "Posted to #releases: primary Alice Moreau, secondary Bob Okafor, escalation Cara Lindqvist (2026-W49).",
  },
];

// ------------------------------------------------------------------ round 11

const MONGO = "conn-prod-7f3a";
const pods = {
  apiVersion: "v1",
  items: [
    { metadata: { name: "payments-api-6c9f7d-2xkq", namespace: "payments" }, status: { phase: "Running", containerStatuses: [{ name: "api", ready: true, restartCount: 0, state: { running: {} } }] } },
    { metadata: { name: "payments-worker-58b4c-9zt2", namespace: "payments" }, status: { phase: "Running", containerStatuses: [{ name: "worker", ready: false, restartCount: 14, state: { waiting: { reason: "CrashLoopBackOff" } } }] } },
    { metadata: { name: "payments-cron-27311-abcd", namespace: "payments" }, status: { phase: "Succeeded", containerStatuses: [{ name: "cron", ready: false, restartCount: 0, state: { terminated: { reason: "Completed" } } }] } },
  ],
};
const workerLogs = "2026-11-29T09:59:58Z INFO starting worker\n2026-11-29T09:59:59Z ERROR redis: dial tcp 10.0.4.12:6379: connect: connection refused\n2026-11-29T09:59:59Z FATAL cannot start without queue";
const sprintStories = [
  { id: 3101, name: "Checkout: Apple Pay", story_type: "feature", workflow_state_id: 500000011, completed: true, estimate: 5, owner_ids: ["u-alice"] },
  { id: 3102, name: "Retry failed webhooks", story_type: "feature", workflow_state_id: 500000010, completed: false, started: true, estimate: 3, owner_ids: ["u-bob"] },
  { id: 3105, name: "Fix rounding in invoices", story_type: "bug", workflow_state_id: 500000010, completed: false, started: true, estimate: 2, owner_ids: ["u-cara"] },
  { id: 3108, name: "Audit log export", story_type: "feature", workflow_state_id: 500000008, completed: false, started: false, estimate: 8, owner_ids: [] },
];
const meetingMarkdown = lines(
  "# Weekly sync 2026-11-27",
  "",
  "## Decisions",
  "- Ship 2.4 on Dec 2",
  "",
  "## Action items",
  "- [ ] Write the migration guide for line taxes",
  "- [ ] Load-test the export endpoint",
);

const ROUND_11: Task[] = [
  {
    id: "sprint-status",
    round: 11,
    prompt: "Post the status of the active Shortcut iteration to Slack channel C04RELEASE.",
    calls: [
      call("shortcut", "iterations-get-active", {}, { iterations: [{ id: 77, name: "Sprint 49", start_date: "2026-11-24", end_date: "2026-12-05", stats: { num_stories_done: 1, num_stories_started: 2, num_stories_unstarted: 1 } }] }),
      call("shortcut", "iterations-get-stories", { iterationPublicId: 77 }, { stories: sprintStories }),
      call("slack", "slack_post_message", { channel_id: "C04RELEASE", text: "Sprint 49: 1/4 stories done, 13 points open\nIn progress: Retry failed webhooks, Fix rounding in invoices" }, posted("C04RELEASE", "1764413100.000200", "Sprint 49: 1/4 stories done, 13 points open")),
    ],
    script: lines(
      "sprint = shortcut.iterations_get_active()['iterations'][0]",
      "stories = shortcut.iterations_get_stories(iterationPublicId=sprint['id'])['stories']",
      "done = [s for s in stories if s['completed']]",
      "doing = [s['name'] for s in stories if s.get('started') and not s['completed']]",
      "open_points = sum(s['estimate'] for s in stories if not s['completed'])",
      "text = f\"{sprint['name']}: {len(done)}/{len(stories)} stories done, {open_points} points open\\nIn progress: {', '.join(doing)}\"",
      'slack.slack_post_message(channel_id="C04RELEASE", text=text)',
      "RESULT = text",
    ),
    searches: ["active iteration", "stories in an iteration", "post a message to a slack channel"],
    answer: "Posted: Sprint 49, 1 of 4 stories done, 13 points open; in progress: webhook retries and invoice rounding.",
  },
  {
    id: "failed-orders-bug",
    round: 11,
    prompt: "How many orders failed in the last day in the shop database? If any, file a Shortcut bug with the top error.",
    calls: [
      call("mongodb", "connect", { connectionString: "mongodb+srv://reporting@shop.example.net/shop" }, structured(`Connected. connectionId: ${MONGO}`, { connectionId: MONGO })),
      call("mongodb", "aggregate", { connectionId: MONGO, database: "shop", collection: "orders", pipeline: [{ $match: { status: "failed", createdAt: { $gte: "2026-11-28T10:00:00Z" } } }, { $group: { _id: "$error.code", n: { $sum: 1 } } }, { $sort: { n: -1 } }] }, aggregated([{ _id: "CARD_DECLINED", n: 31 }, { _id: "PSP_TIMEOUT", n: 12 }, { _id: "ADDRESS_INVALID", n: 3 }])),
      call("shortcut", "stories-create", { name: "46 failed orders in 24 h (top: CARD_DECLINED x31)", type: "bug", description: "CARD_DECLINED: 31\nPSP_TIMEOUT: 12\nADDRESS_INVALID: 3" }, { id: 3120, app_url: "https://app.shortcut.com/acme/story/3120", name: "46 failed orders in 24 h (top: CARD_DECLINED x31)" }),
    ],
    script: lines(
      'conn = mongodb.connect(connectionString="mongodb+srv://reporting@shop.example.net/shop")',
      "cid = conn['connectionId']",
      "pipeline = [{'$match': {'status': 'failed', 'createdAt': {'$gte': '2026-11-28T10:00:00Z'}}}, {'$group': {'_id': '$error.code', 'n': {'$sum': 1}}}, {'$sort': {'n': -1}}]",
      "rows = mongodb.aggregate(connectionId=cid, database='shop', collection='orders', pipeline=pipeline)['documents']",
      "total = sum(r['n'] for r in rows)",
      "RESULT = {'failed': total}",
      "if total:",
      "    story = shortcut.stories_create(name=f\"{total} failed orders in 24 h (top: {rows[0]['_id']} x{rows[0]['n']})\", type='bug', description='\\n'.join(f\"{r['_id']}: {r['n']}\" for r in rows))",
      "    RESULT['story'] = story['app_url']",
    ),
    searches: ["connect to a mongodb database", "run an aggregation on a collection", "create a shortcut story"],
    answer: "46 orders failed in the last 24 h (31 card declined, 12 PSP timeouts, 3 invalid addresses); filed story 3120.",
  },
  {
    id: "crashloop-diagnosis",
    round: 11,
    prompt: "Something in the payments namespace is crash-looping. Find it, read its logs and open a GitHub issue in acme/infra.",
    calls: [
      call("kubernetes", "kubectl_get", { resourceType: "pods", namespace: "payments" }, pods),
      call("kubernetes", "kubectl_logs", { resourceType: "pod", name: "payments-worker-58b4c-9zt2", namespace: "payments", tail: 20 }, { logs: workerLogs }),
      call("github", "create_issue", { owner: "acme", repo: "infra", title: "payments-worker-58b4c-9zt2 in CrashLoopBackOff (14 restarts)", body: "Last log lines:\n```\n" + workerLogs + "\n```", labels: ["incident"] }, { number: 88, html_url: "https://github.com/acme/infra/issues/88" }),
    ],
    script: lines(
      'pods = kubernetes.kubectl_get(resourceType="pods", namespace="payments")["items"]',
      "bad = [p for p in pods for c in p['status']['containerStatuses'] if c['state'].get('waiting', {}).get('reason') == 'CrashLoopBackOff']",
      "pod = bad[0]",
      "restarts = pod['status']['containerStatuses'][0]['restartCount']",
      'logs = kubernetes.kubectl_logs(resourceType="pod", name=pod["metadata"]["name"], namespace="payments", tail=20)["logs"]',
      "issue = github.create_issue(owner='acme', repo='infra', title=f\"{pod['metadata']['name']} in CrashLoopBackOff ({restarts} restarts)\", body='Last log lines:\\n```\\n' + logs + '\\n```', labels=['incident'])",
      "RESULT = {'pod': pod['metadata']['name'], 'issue': issue['html_url'], 'last_error': logs.splitlines()[-1]}",
    ),
    searches: ["list kubernetes pods", "get logs of a pod", "create a github issue"],
    answer: "payments-worker is crash-looping (14 restarts): it cannot reach Redis at 10.0.4.12:6379. Opened acme/infra#88.",
  },
  {
    id: "scale-for-sale",
    round: 11,
    prompt: "Scale the checkout deployment in the shop namespace to twice its current replicas and wait for the rollout.",
    calls: [
      call("kubernetes", "kubectl_get", { resourceType: "deployment", name: "checkout", namespace: "shop" }, { metadata: { name: "checkout", namespace: "shop" }, spec: { replicas: 4 }, status: { readyReplicas: 4, availableReplicas: 4 } }),
      call("kubernetes", "kubectl_scale", { name: "checkout", replicas: 8, namespace: "shop" }, { content: [{ type: "text", text: "deployment.apps/checkout scaled" }] }),
      call("kubernetes", "kubectl_rollout", { subCommand: "status", resourceType: "deployment", name: "checkout", namespace: "shop", timeout: "120s" }, { content: [{ type: "text", text: "deployment \"checkout\" successfully rolled out" }] }),
    ],
    script: lines(
      'dep = kubernetes.kubectl_get(resourceType="deployment", name="checkout", namespace="shop")',
      "target = dep['spec']['replicas'] * 2",
      'kubernetes.kubectl_scale(name="checkout", replicas=target, namespace="shop")',
      'status = kubernetes.kubectl_rollout(subCommand="status", resourceType="deployment", name="checkout", namespace="shop", timeout="120s")',
      "RESULT = {'replicas': target, 'rollout': status}",
    ),
    searches: ["get a kubernetes deployment", "scale a deployment", "rollout status of a deployment"],
    answer: "checkout scaled from 4 to 8 replicas; the rollout completed.",
  },
  {
    id: "meeting-actions",
    round: 11,
    prompt: "Turn the action items of the latest 'Weekly sync' page in Notion into Shortcut stories.",
    calls: [
      call("notion", "API-post-search", { query: "Weekly sync", page_size: 1 }, { object: "list", results: [{ object: "page", id: "1f3e9a4b-77c2-4c1e-9d51-2a6f0b8c9e01", properties: { title: { title: [{ plain_text: "Weekly sync 2026-11-27" }] } }, last_edited_time: "2026-11-27T17:00:00.000Z" }], has_more: false }),
      call("notion", "API-retrieve-page-markdown", { page_id: "1f3e9a4b-77c2-4c1e-9d51-2a6f0b8c9e01" }, { markdown: meetingMarkdown }),
      call("shortcut", "stories-create", { name: "Write the migration guide for line taxes", type: "chore" }, { id: 3121, app_url: "https://app.shortcut.com/acme/story/3121" }),
      call("shortcut", "stories-create", { name: "Load-test the export endpoint", type: "chore" }, { id: 3122, app_url: "https://app.shortcut.com/acme/story/3122" }),
    ],
    script: lines(
      'page = notion.api_post_search(query="Weekly sync", page_size=1)["results"][0]',
      "md = notion.api_retrieve_page_markdown(page_id=page['id'])['markdown']",
      "items = [l[6:] for l in md.splitlines() if l.startswith('- [ ] ')]",
      "RESULT = [shortcut.stories_create(name=item, type='chore')['id'] for item in items]",
    ),
    searches: ["search notion pages by title", "notion page as markdown", "create a shortcut story"],
    answer: "Created stories 3121 (migration guide for line taxes) and 3122 (load-test the export endpoint).",
  },
  {
    id: "smoke-test-page",
    round: 11,
    prompt: "Open https://staging.acme.dev/checkout, check it renders the Pay button and has no console errors, and save a note to /workspace/qa/checkout.md.",
    calls: [
      call("playwright", "browser_navigate", { url: "https://staging.acme.dev/checkout" }, { content: [{ type: "text", text: "### Page\n- URL: https://staging.acme.dev/checkout\n- Title: Checkout - Acme" }] }),
      call("playwright", "browser_snapshot", {}, { content: [{ type: "text", text: "- heading \"Checkout\" [ref=e3]\n- textbox \"Card number\" [ref=e7]\n- textbox \"Expiry\" [ref=e8]\n- button \"Pay 42.00 EUR\" [ref=e12]" }] }),
      call("playwright", "browser_console_messages", { level: "error" }, { content: [{ type: "text", text: "[ERROR] Failed to load resource: the server responded with a status of 404 (/static/promo-banner.png)" }] }),
      call("filesystem", "write_file", { path: "/workspace/qa/checkout.md", content: "# Checkout smoke test\n\n- Pay button: yes\n- Console errors: 1\n  - [ERROR] Failed to load resource: the server responded with a status of 404 (/static/promo-banner.png)" }, fsText("Successfully wrote to /workspace/qa/checkout.md")),
    ],
    script: lines(
      'playwright.browser_navigate(url="https://staging.acme.dev/checkout")',
      "snapshot = playwright.browser_snapshot()",
      "errors = [l for l in playwright.browser_console_messages(level='error').splitlines() if l]",
      "has_pay = 'button \"Pay' in snapshot",
      "note = f\"# Checkout smoke test\\n\\n- Pay button: {'yes' if has_pay else 'no'}\\n- Console errors: {len(errors)}\" + ''.join('\\n  - ' + e for e in errors)",
      'filesystem.write_file(path="/workspace/qa/checkout.md", content=note)',
      "RESULT = {'pay_button': has_pay, 'errors': errors}",
    ),
    searches: ["open a url in the browser", "accessibility snapshot of the page", "browser console messages", "write a file"],
    answer: "Checkout renders the Pay button; one console error (404 on /static/promo-banner.png). Note saved.",
  },
  {
    id: "revenue-to-notion",
    round: 11,
    prompt: "Put November's revenue per region from the shop database into a new page under the Notion 'Reports' page.",
    calls: [
      call("mongodb", "connect", { connectionString: "mongodb+srv://reporting@shop.example.net/shop" }, structured(`Connected. connectionId: ${MONGO}`, { connectionId: MONGO })),
      call("mongodb", "aggregate", { connectionId: MONGO, database: "shop", collection: "orders", pipeline: [{ $match: { status: "paid", month: "2026-11" } }, { $group: { _id: "$region", revenue: { $sum: "$total" } } }, { $sort: { revenue: -1 } }] }, aggregated([{ _id: "EU", revenue: 412300.5 }, { _id: "NA", revenue: 388120 }, { _id: "APAC", revenue: 96540.25 }])),
      call("notion", "API-post-page", { parent: { page_id: "9a8b7c6d-1111-2222-3333-444455556666" }, properties: { title: [{ text: { content: "Revenue by region, 2026-11" } }] }, children: [{ object: "block", type: "paragraph", paragraph: { rich_text: [{ type: "text", text: { content: "EU: 412,300.50\nNA: 388,120.00\nAPAC: 96,540.25" } }] } }] }, { object: "page", id: "5d4c3b2a-aaaa-bbbb-cccc-ddddeeeeffff", url: "https://www.notion.so/Revenue-by-region-2026-11-5d4c3b2a" }),
    ],
    script: lines(
      'conn = mongodb.connect(connectionString="mongodb+srv://reporting@shop.example.net/shop")',
      "cid = conn['connectionId']",
      "pipeline = [{'$match': {'status': 'paid', 'month': '2026-11'}}, {'$group': {'_id': '$region', 'revenue': {'$sum': '$total'}}}, {'$sort': {'revenue': -1}}]",
      "rows = mongodb.aggregate(connectionId=cid, database='shop', collection='orders', pipeline=pipeline)['documents']",
      "text = '\\n'.join(f\"{r['_id']}: {r['revenue']:,.2f}\" for r in rows)",
      "block = {'object': 'block', 'type': 'paragraph', 'paragraph': {'rich_text': [{'type': 'text', 'text': {'content': text}}]}}",
      "page = notion.api_post_page(parent={'page_id': '9a8b7c6d-1111-2222-3333-444455556666'}, properties={'title': [{'text': {'content': 'Revenue by region, 2026-11'}}]}, children=[block])",
      "RESULT = page['url']",
    ),
    searches: ["connect to a mongodb database", "run an aggregation on a collection", "create a notion page"],
    answer: "Created 'Revenue by region, 2026-11' in Notion: EU 412,300.50, NA 388,120.00, APAC 96,540.25.",
  },
  {
    id: "epic-progress",
    round: 11,
    prompt: "How far along is the 'Line taxes' epic in Shortcut? Record the answer in memory.",
    calls: [
      call("shortcut", "epics-search", { name: "Line taxes" }, { epics: [{ id: 240, name: "Line taxes", state: "started", deadline: "2026-12-12" }] }),
      call("shortcut", "stories-search", { epic: 240 }, { stories: [sprintStories[0], sprintStories[2], { id: 3110, name: "Tax rates per country table", story_type: "feature", completed: true, estimate: 3 }] }),
      call("memory", "add_observations", { observations: [{ entityName: "Line taxes", contents: ["2026-11-29: 2/3 stories done, deadline 2026-12-12"] }] }, structured("Added 1 observation to Line taxes", { results: [{ entityName: "Line taxes", addedObservations: ["2026-11-29: 2/3 stories done, deadline 2026-12-12"] }] })),
    ],
    script: lines(
      'epic = shortcut.epics_search(name="Line taxes")["epics"][0]',
      "stories = shortcut.stories_search(epic=epic['id'])['stories']",
      "done = sum(1 for s in stories if s['completed'])",
      "note = f\"2026-11-29: {done}/{len(stories)} stories done, deadline {epic['deadline']}\"",
      "memory.add_observations(observations=[{'entityName': epic['name'], 'contents': [note]}])",
      "RESULT = note",
    ),
    searches: ["find a shortcut epic", "search shortcut stories", "add observations to an entity"],
    answer: "Line taxes: 2 of 3 stories done, deadline 2026-12-12 (recorded in memory).",
  },
  {
    id: "nudge-stale-stories",
    round: 11,
    prompt: "Comment on every started Shortcut story owned by bob that has not moved this week, asking for an update.",
    calls: [
      call("shortcut", "stories-search", { owner: "bob", isStarted: true, updated: "*..2026-11-23" }, { stories: [{ id: 3102, name: "Retry failed webhooks", updated_at: "2026-11-19T12:00:00Z" }, { id: 3099, name: "Rate-limit admin API", updated_at: "2026-11-15T08:00:00Z" }] }),
      call("shortcut", "stories-create-comment", { storyPublicId: 3102, text: "Any update on 'Retry failed webhooks'? No change since 2026-11-19." }, { id: 9001 }),
      call("shortcut", "stories-create-comment", { storyPublicId: 3099, text: "Any update on 'Rate-limit admin API'? No change since 2026-11-15." }, { id: 9002 }),
    ],
    script: lines(
      'stale = shortcut.stories_search(owner="bob", isStarted=True, updated="*..2026-11-23")["stories"]',
      "for s in stale:",
      "    shortcut.stories_create_comment(storyPublicId=s['id'], text=f\"Any update on '{s['name']}'? No change since {s['updated_at'][:10]}.\")",
      "RESULT = [s['id'] for s in stale]",
    ),
    searches: ["search shortcut stories", "comment on a shortcut story"],
    answer: "Asked for updates on 3102 (Retry failed webhooks) and 3099 (Rate-limit admin API).",
  },
  {
    id: "deployment-issue-link",
    round: 11,
    prompt: "Describe the search-indexer deployment in prod and add its current state to the open GitHub issue about the indexer in acme/infra.",
    calls: [
      call("kubernetes", "kubectl_describe", { resourceType: "deployment", name: "search-indexer", namespace: "prod" }, { content: [{ type: "text", text: "Name: search-indexer\nNamespace: prod\nReplicas: 3 desired | 3 updated | 2 available | 1 unavailable\nImage: acme/search-indexer:1.14.2\nConditions: Available False MinimumReplicasUnavailable" }] }),
      call("github", "search_issues", { q: "repo:acme/infra is:issue is:open search-indexer" }, { total_count: 1, items: [{ number: 81, title: "search-indexer lagging behind writes", state: "open" }] }),
      call("github", "add_issue_comment", { owner: "acme", repo: "infra", issue_number: 81, body: "Current state (kubectl describe):\nReplicas: 3 desired | 3 updated | 2 available | 1 unavailable\nImage: acme/search-indexer:1.14.2\nConditions: Available False MinimumReplicasUnavailable" }, { id: 90377, html_url: "https://github.com/acme/infra/issues/81#issuecomment-90377" }),
    ],
    script: lines(
      'text = kubernetes.kubectl_describe(resourceType="deployment", name="search-indexer", namespace="prod")',
      "keep = [l for l in text.splitlines() if l.split(':')[0] in ('Replicas', 'Image', 'Conditions')]",
      'issue = github.search_issues(q="repo:acme/infra is:issue is:open search-indexer")["items"][0]',
      "c = github.add_issue_comment(owner='acme', repo='infra', issue_number=issue['number'], body='Current state (kubectl describe):\\n' + '\\n'.join(keep))",
      "RESULT = c['html_url']",
    ),
    searches: ["describe a kubernetes deployment", "search github issues", "comment on a github issue"],
    answer: "search-indexer has 1 of 3 replicas unavailable (image 1.14.2); added that to acme/infra#81.",
  },
];

// ------------------------------------------------------------------ round 16

const mrNotes = [
  { id: 7001, body: "Please add a test for the empty cart", author: { username: "jdoe" }, resolvable: true, resolved: false },
  { id: 7002, body: "Done in 4c1a", author: { username: "lkim" }, resolvable: false },
  { id: 7003, body: "LGTM once CI is green", author: { username: "apatel" }, resolvable: true, resolved: true },
];
const unread = [
  { id: "AAMkAD1", subject: "Invoice PDF shows wrong VAT", from: { emailAddress: { name: "Jane Buyer", address: "jane@customer.example" } }, receivedDateTime: "2026-11-29T07:12:00Z", bodyPreview: "The VAT on line 3 is 19% instead of 7%..." },
  { id: "AAMkAD2", subject: "Lunch on Friday?", from: { emailAddress: { name: "Bob Okafor", address: "bob@acme.example" } }, receivedDateTime: "2026-11-29T08:02:00Z", bodyPreview: "Usual place?" },
  { id: "AAMkAD3", subject: "Bug: export button does nothing", from: { emailAddress: { name: "Li Wei", address: "li@partner.example" } }, receivedDateTime: "2026-11-29T08:40:00Z", bodyPreview: "Clicking Export on the reports page..." },
];
const gitlabIssues = [
  { iid: 301, title: "Flaky e2e on Safari", assignee: { username: "lkim" }, state: "opened" },
  { iid: 305, title: "Migrate to Postgres 17", assignee: { username: "jdoe" }, state: "opened" },
  { iid: 307, title: "Rotate staging secrets", assignee: { username: "jdoe" }, state: "opened" },
  { iid: 309, title: "Docs: API pagination", assignee: { username: "apatel" }, state: "opened" },
  { iid: 312, title: "Cache warmup after deploy", assignee: { username: "jdoe" }, state: "opened" },
];
const mail = (to: string, subject: string, content: string) => ({
  body: { Message: { subject, body: { contentType: "text", content }, toRecipients: [{ emailAddress: { address: to } }] } },
});

const ROUND_16: Task[] = [
  {
    id: "mr-review-status",
    round: 16,
    prompt: "Check merge request !142 in acme/platform: pipeline status and unresolved threads, then leave a note summarizing what blocks it.",
    calls: [
      call("gitlab", "get_merge_request", { project_id: "acme/platform", merge_request_iid: "142" }, { iid: 142, title: "Cart: free shipping threshold", state: "opened", draft: false, author: { username: "lkim" }, source_branch: "feat/free-shipping", target_branch: "main", merge_status: "can_be_merged", web_url: "https://gitlab.com/acme/platform/-/merge_requests/142" }),
      call("gitlab", "list_merge_request_pipelines", { project_id: "acme/platform", merge_request_iid: "142", per_page: 1 }, [{ id: 991200, status: "failed", ref: "refs/merge-requests/142/head", sha: "4c1a9e0", web_url: "https://gitlab.com/acme/platform/-/pipelines/991200" }]),
      call("gitlab", "get_merge_request_notes", { project_id: "acme/platform", merge_request_iid: "142" }, mrNotes),
      call("gitlab", "create_merge_request_note", { project_id: "acme/platform", merge_request_iid: "142", body: "Blocking: pipeline 991200 failed; 1 unresolved thread(s): Please add a test for the empty cart" }, { id: 7010, body: "Blocking: pipeline 991200 failed; 1 unresolved thread(s): Please add a test for the empty cart" }),
    ],
    script: lines(
      'mr = gitlab.get_merge_request(project_id="acme/platform", merge_request_iid="142")',
      'pipeline = gitlab.list_merge_request_pipelines(project_id="acme/platform", merge_request_iid="142", per_page=1)[0]',
      'notes = gitlab.get_merge_request_notes(project_id="acme/platform", merge_request_iid="142")',
      "open_threads = [n['body'] for n in notes if n.get('resolvable') and not n.get('resolved')]",
      "blockers = []",
      "if pipeline['status'] != 'success':",
      "    blockers.append(f\"pipeline {pipeline['id']} {pipeline['status']}\")",
      "if open_threads:",
      "    blockers.append(f\"{len(open_threads)} unresolved thread(s): \" + '; '.join(open_threads))",
      'gitlab.create_merge_request_note(project_id="acme/platform", merge_request_iid="142", body="Blocking: " + "; ".join(blockers))',
      "RESULT = {'mergeable': mr['merge_status'], 'blockers': blockers}",
    ),
    searches: ["get a gitlab merge request", "pipelines of a merge request", "notes on a merge request", "add a note to a merge request"],
    answer: "!142 is blocked: pipeline 991200 failed and one thread is unresolved (test for the empty cart). Note posted.",
  },
  {
    id: "my-issues-by-mail",
    round: 16,
    prompt: "Email me (jdoe@acme.example) the list of GitLab issues assigned to me in acme/platform.",
    calls: [
      call("gitlab", "my_issues", { project_id: "acme/platform", state: "opened" }, gitlabIssues.filter((i) => i.assignee.username === "jdoe")),
      call("ms365", "send-mail", mail("jdoe@acme.example", "Your open issues in acme/platform (3)", "#305 Migrate to Postgres 17\n#307 Rotate staging secrets\n#312 Cache warmup after deploy"), { content: [{ type: "text", text: "Mail sent" }] }),
    ],
    script: lines(
      'issues = gitlab.my_issues(project_id="acme/platform", state="opened")',
      "content = '\\n'.join(f\"#{i['iid']} {i['title']}\" for i in issues)",
      "ms365.send_mail(body={'Message': {'subject': f'Your open issues in acme/platform ({len(issues)})', 'body': {'contentType': 'text', 'content': content}, 'toRecipients': [{'emailAddress': {'address': 'jdoe@acme.example'}}]}})",
      "RESULT = len(issues)",
    ),
    searches: ["issues assigned to me on gitlab", "send an email"],
    answer: "Sent you the 3 open issues assigned to you (#305, #307, #312).",
  },
  {
    id: "inbox-bug-reports",
    round: 16,
    prompt: "Go through my unread mail; for every bug report, create a Shortcut bug and reply that we are on it.",
    calls: [
      call("ms365", "list-mail-messages", { filter: "isRead eq false", top: 10, select: ["id", "subject", "from", "receivedDateTime", "bodyPreview"] }, { value: unread }),
      call("shortcut", "stories-create", { name: "Invoice PDF shows wrong VAT", type: "bug", description: "Reported by jane@customer.example: The VAT on line 3 is 19% instead of 7%..." }, { id: 3130, app_url: "https://app.shortcut.com/acme/story/3130" }),
      call("ms365", "reply-mail-message", { messageId: "AAMkAD1", body: { comment: "Thanks, we are on it (ticket 3130)." } }, { content: [{ type: "text", text: "Reply sent" }] }),
      call("shortcut", "stories-create", { name: "Bug: export button does nothing", type: "bug", description: "Reported by li@partner.example: Clicking Export on the reports page..." }, { id: 3131, app_url: "https://app.shortcut.com/acme/story/3131" }),
      call("ms365", "reply-mail-message", { messageId: "AAMkAD3", body: { comment: "Thanks, we are on it (ticket 3131)." } }, { content: [{ type: "text", text: "Reply sent" }] }),
    ],
    script: lines(
      'msgs = ms365.list_mail_messages(filter="isRead eq false", top=10, select=["id", "subject", "from", "receivedDateTime", "bodyPreview"])["value"]',
      "bugs = [m for m in msgs if any(w in (m['subject'] + m['bodyPreview']).lower() for w in ('bug', 'wrong', 'error', 'does nothing'))]",
      "RESULT = []",
      "for m in bugs:",
      "    story = shortcut.stories_create(name=m['subject'], type='bug', description=f\"Reported by {m['from']['emailAddress']['address']}: {m['bodyPreview']}\")",
      "    ms365.reply_mail_message(messageId=m['id'], body={'comment': f\"Thanks, we are on it (ticket {story['id']}).\"})",
      "    RESULT.append(story['id'])",
    ),
    searches: ["list unread outlook mail", "create a shortcut story", "reply to an email"],
    answer: "Two bug reports found (wrong VAT on invoices, export button): stories 3130 and 3131 created, both senders answered.",
  },
  {
    id: "lighthouse-to-slack",
    round: 16,
    prompt: "Run a Lighthouse audit of https://www.acme.dev and post the scores to #releases.",
    calls: [
      call("chrome_devtools", "new_page", { url: "https://www.acme.dev" }, { content: [{ type: "text", text: "## Pages\n1: https://www.acme.dev [selected]" }] }),
      call("chrome_devtools", "lighthouse_audit", { pageId: 1, device: "mobile" }, { scores: { performance: 0.71, accessibility: 0.93, "best-practices": 0.96, seo: 0.9 }, failing: [{ id: "largest-contentful-paint", displayValue: "4.1 s" }, { id: "unused-javascript", displayValue: "Potential savings of 182 KiB" }] }),
      call("slack", "slack_post_message", { channel_id: "C04RELEASE", text: "Lighthouse (mobile) www.acme.dev: performance 71, accessibility 93, best-practices 96, seo 90\nFailing: largest-contentful-paint (4.1 s), unused-javascript (Potential savings of 182 KiB)" }, posted("C04RELEASE", "1764413500.000300", "Lighthouse (mobile)...")),
    ],
    script: lines(
      'chrome_devtools.new_page(url="https://www.acme.dev")',
      'audit = chrome_devtools.lighthouse_audit(pageId=1, device="mobile")',
      "scores = ', '.join(f'{k} {round(v * 100)}' for k, v in audit['scores'].items())",
      "failing = ', '.join(f\"{f['id']} ({f['displayValue']})\" for f in audit['failing'])",
      'slack.slack_post_message(channel_id="C04RELEASE", text=f"Lighthouse (mobile) www.acme.dev: {scores}\\nFailing: {failing}")',
      "RESULT = audit['scores']",
    ),
    searches: ["open a new browser page", "lighthouse audit", "post a message to a slack channel"],
    answer: "Posted to #releases: performance 71, accessibility 93, best practices 96, SEO 90; LCP 4.1 s and unused JS flagged.",
  },
  {
    id: "sales-chart-mail",
    round: 16,
    prompt: "Chart the monthly revenue of 2026 from the shop database and email the chart to cfo@acme.example.",
    calls: [
      call("mongodb", "connect", { connectionString: "mongodb+srv://reporting@shop.example.net/shop" }, structured(`Connected. connectionId: ${MONGO}`, { connectionId: MONGO })),
      call("mongodb", "aggregate", { connectionId: MONGO, database: "shop", collection: "orders", pipeline: [{ $match: { status: "paid", month: { $gte: "2026-01" } } }, { $group: { _id: "$month", revenue: { $sum: "$total" } } }, { $sort: { _id: 1 } }] }, aggregated(["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11"].map((m, i) => ({ _id: `2026-${m}`, revenue: 610000 + i * 23500 + (i % 3) * 9100 })))),
      call("antv_chart", "generate_line_chart", { data: ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11"].map((m, i) => ({ time: `2026-${m}`, value: 610000 + i * 23500 + (i % 3) * 9100 })), title: "Revenue 2026", axisYTitle: "EUR" }, { content: [{ type: "text", text: "https://mdn.alipayobjects.com/one_clip/afts/img/revenue-2026.png" }] }),
      call("ms365", "send-mail", mail("cfo@acme.example", "Revenue 2026 to date", "Monthly revenue chart: https://mdn.alipayobjects.com/one_clip/afts/img/revenue-2026.png"), { content: [{ type: "text", text: "Mail sent" }] }),
    ],
    script: lines(
      'conn = mongodb.connect(connectionString="mongodb+srv://reporting@shop.example.net/shop")',
      "cid = conn['connectionId']",
      "pipeline = [{'$match': {'status': 'paid', 'month': {'$gte': '2026-01'}}}, {'$group': {'_id': '$month', 'revenue': {'$sum': '$total'}}}, {'$sort': {'_id': 1}}]",
      "rows = mongodb.aggregate(connectionId=cid, database='shop', collection='orders', pipeline=pipeline)['documents']",
      "url = antv_chart.generate_line_chart(data=[{'time': r['_id'], 'value': r['revenue']} for r in rows], title='Revenue 2026', axisYTitle='EUR')",
      "ms365.send_mail(body={'Message': {'subject': 'Revenue 2026 to date', 'body': {'contentType': 'text', 'content': f'Monthly revenue chart: {url}'}, 'toRecipients': [{'emailAddress': {'address': 'cfo@acme.example'}}]}})",
      "RESULT = url",
    ),
    searches: ["connect to a mongodb database", "run an aggregation on a collection", "generate a line chart", "send an email"],
    answer: "Emailed cfo@acme.example the 2026 revenue line chart (January to November).",
  },
  {
    id: "news-brief",
    round: 16,
    prompt: "Make a Notion page with this week's news about 'EU AI Act' (top 3 articles).",
    calls: [
      call("brave_search", "brave_news_search", { query: "EU AI Act", count: 3, freshness: "pw" }, { results: [{ title: "Commission publishes GPAI code of practice update", url: "https://news.example.eu/gpai-code", age: "2 days ago", description: "The update clarifies transparency duties." }, { title: "What the AI Act means for startups in 2027", url: "https://tech.example.com/ai-act-startups", age: "4 days ago", description: "Deadlines and exemptions explained." }, { title: "Member states name AI supervisory authorities", url: "https://policy.example.org/ai-authorities", age: "6 days ago", description: "Eighteen countries have designated regulators." }] }),
      call("notion", "API-post-page", { parent: { page_id: "9a8b7c6d-1111-2222-3333-444455556666" }, properties: { title: [{ text: { content: "EU AI Act: news of the week" } }] }, children: [{ object: "block", type: "bulleted_list_item", bulleted_list_item: { rich_text: [{ type: "text", text: { content: "Commission publishes GPAI code of practice update (2 days ago): https://news.example.eu/gpai-code" } }] } }, { object: "block", type: "bulleted_list_item", bulleted_list_item: { rich_text: [{ type: "text", text: { content: "What the AI Act means for startups in 2027 (4 days ago): https://tech.example.com/ai-act-startups" } }] } }, { object: "block", type: "bulleted_list_item", bulleted_list_item: { rich_text: [{ type: "text", text: { content: "Member states name AI supervisory authorities (6 days ago): https://policy.example.org/ai-authorities" } }] } }] }, { object: "page", id: "6e5d4c3b-aaaa-bbbb-cccc-ddddeeeeffff", url: "https://www.notion.so/EU-AI-Act-news-of-the-week-6e5d4c3b" }),
    ],
    script: lines(
      'news = brave_search.brave_news_search(query="EU AI Act", count=3, freshness="pw")["results"]',
      "blocks = [{'object': 'block', 'type': 'bulleted_list_item', 'bulleted_list_item': {'rich_text': [{'type': 'text', 'text': {'content': f\"{n['title']} ({n['age']}): {n['url']}\"}}]}} for n in news]",
      "page = notion.api_post_page(parent={'page_id': '9a8b7c6d-1111-2222-3333-444455556666'}, properties={'title': [{'text': {'content': 'EU AI Act: news of the week'}}]}, children=blocks)",
      "RESULT = page['url']",
    ),
    searches: ["search news articles", "create a notion page"],
    answer: "Created the Notion page 'EU AI Act: news of the week' with the 3 top articles.",
  },
  {
    id: "competitor-pricing",
    round: 16,
    prompt: "Find the pricing page of Rivalsoft, read it and remember their plans and prices.",
    calls: [
      call("brave_search", "brave_web_search", { query: "Rivalsoft pricing", count: 3 }, { web: { results: [{ title: "Pricing - Rivalsoft", url: "https://rivalsoft.example/pricing", description: "Simple plans for every team." }, { title: "Rivalsoft review 2026", url: "https://reviews.example.com/rivalsoft", description: "Is it worth it?" }] } }),
      call("firecrawl", "firecrawl_scrape", { url: "https://rivalsoft.example/pricing", formats: ["markdown"], onlyMainContent: true }, { markdown: "# Pricing\n\n## Starter\n$19 per user / month\n\n## Team\n$49 per user / month\n\n## Enterprise\nContact sales", metadata: { title: "Pricing - Rivalsoft", statusCode: 200 } }),
      createEntities([{ name: "Rivalsoft", entityType: "competitor", observations: ["Starter: $19 per user / month", "Team: $49 per user / month", "Enterprise: Contact sales"] }], "1 entity created"),
    ],
    script: lines(
      'hits = brave_search.brave_web_search(query="Rivalsoft pricing", count=3)["web"]["results"]',
      "url = [h['url'] for h in hits if 'pricing' in h['url']][0]",
      "md = firecrawl.firecrawl_scrape(url=url, formats=['markdown'], onlyMainContent=True)['markdown']",
      "plans = []",
      "for section in md.split('\\n## ')[1:]:",
      "    name, _, price = section.strip().partition('\\n')",
      "    plans.append(f'{name}: {price.strip()}')",
      "memory.create_entities(entities=[{'name': 'Rivalsoft', 'entityType': 'competitor', 'observations': plans}])",
      "RESULT = plans",
    ),
    searches: ["web search", "scrape a web page as markdown", "create entities in the knowledge graph"],
    answer: "Rivalsoft: Starter $19/user/month, Team $49/user/month, Enterprise on request (saved to memory).",
  },
  {
    id: "failed-pipelines-issue",
    round: 16,
    prompt: "Which open merge requests in acme/platform have a failed latest pipeline? Open one GitLab issue listing them.",
    calls: [
      call("gitlab", "list_merge_requests", { project_id: "acme/platform", state: "opened", per_page: 3 }, [{ iid: 142, title: "Cart: free shipping threshold", author: { username: "lkim" } }, { iid: 145, title: "Search: typo tolerance", author: { username: "apatel" } }, { iid: 147, title: "Bump node to 22", author: { username: "jdoe" } }]),
      call("gitlab", "list_merge_request_pipelines", { project_id: "acme/platform", merge_request_iid: "142", per_page: 1 }, [{ id: 991200, status: "failed" }]),
      call("gitlab", "list_merge_request_pipelines", { project_id: "acme/platform", merge_request_iid: "145", per_page: 1 }, [{ id: 991310, status: "success" }]),
      call("gitlab", "list_merge_request_pipelines", { project_id: "acme/platform", merge_request_iid: "147", per_page: 1 }, [{ id: 991322, status: "failed" }]),
      call("gitlab", "create_issue", { project_id: "acme/platform", title: "2 open MRs with failed pipelines", description: "- !142 Cart: free shipping threshold (lkim), pipeline 991200\n- !147 Bump node to 22 (jdoe), pipeline 991322", labels: ["ci"] }, { iid: 320, web_url: "https://gitlab.com/acme/platform/-/issues/320" }),
    ],
    script: lines(
      'mrs = gitlab.list_merge_requests(project_id="acme/platform", state="opened", per_page=3)',
      "failed = []",
      "for mr in mrs:",
      "    p = gitlab.list_merge_request_pipelines(project_id='acme/platform', merge_request_iid=str(mr['iid']), per_page=1)[0]",
      "    if p['status'] == 'failed':",
      "        failed.append(f\"- !{mr['iid']} {mr['title']} ({mr['author']['username']}), pipeline {p['id']}\")",
      "issue = gitlab.create_issue(project_id='acme/platform', title=f'{len(failed)} open MRs with failed pipelines', description='\\n'.join(failed), labels=['ci'])",
      "RESULT = issue['web_url']",
    ),
    searches: ["list gitlab merge requests", "pipelines of a merge request", "create a gitlab issue"],
    answer: "!142 and !147 have failed pipelines; listed in acme/platform#320.",
  },
  {
    id: "perf-trace-chart",
    round: 16,
    prompt: "Record a performance trace of https://www.acme.dev/search and chart the Core Web Vitals.",
    calls: [
      call("chrome_devtools", "new_page", { url: "https://www.acme.dev/search" }, { content: [{ type: "text", text: "## Pages\n1: https://www.acme.dev/search [selected]" }] }),
      call("chrome_devtools", "performance_start_trace", { pageId: 1, reload: true, autoStop: true }, { content: [{ type: "text", text: "The performance trace has been stopped.\nMetrics: LCP=2840 ms, INP=180 ms, CLS=0.08, TTFB=610 ms\nInsights: LCPBreakdown, RenderBlocking" }] }),
      call("antv_chart", "generate_bar_chart", { data: [{ category: "LCP", value: 2840 }, { category: "INP", value: 180 }, { category: "TTFB", value: 610 }], title: "acme.dev/search (ms)" }, { content: [{ type: "text", text: "https://mdn.alipayobjects.com/one_clip/afts/img/cwv-search.png" }] }),
    ],
    script: lines(
      'chrome_devtools.new_page(url="https://www.acme.dev/search")',
      "trace = chrome_devtools.performance_start_trace(pageId=1, reload=True, autoStop=True)",
      "metrics = dict(m.split('=') for m in trace.split('Metrics: ')[1].splitlines()[0].split(', '))",
      "data = [{'category': k, 'value': int(v.split()[0])} for k, v in metrics.items() if v.endswith('ms')]",
      "RESULT = {'chart': antv_chart.generate_bar_chart(data=data, title='acme.dev/search (ms)'), 'CLS': float(metrics['CLS'])}",
    ),
    searches: ["open a new browser page", "record a performance trace", "generate a bar chart"],
    answer: "LCP 2.84 s, INP 180 ms, TTFB 610 ms, CLS 0.08; bar chart attached.",
  },
  {
    id: "workload-chart",
    round: 16,
    prompt: "Show how the open GitLab issues of acme/platform are spread across assignees as a pie chart, and post it to #eng-triage.",
    calls: [
      call("gitlab", "list_issues", { project_id: "acme/platform", scope: "all", state: "opened" }, gitlabIssues),
      call("antv_chart", "generate_pie_chart", { data: [{ category: "lkim", value: 1 }, { category: "jdoe", value: 3 }, { category: "apatel", value: 1 }], title: "Open issues by assignee" }, { content: [{ type: "text", text: "https://mdn.alipayobjects.com/one_clip/afts/img/issues-pie.png" }] }),
      call("slack", "slack_post_message", { channel_id: "C02ENGTRI", text: "Open issues in acme/platform by assignee: https://mdn.alipayobjects.com/one_clip/afts/img/issues-pie.png" }, posted("C02ENGTRI", "1764413600.000100", "Open issues in acme/platform by assignee")),
    ],
    script: lines(
      'issues = gitlab.list_issues(project_id="acme/platform", scope="all", state="opened")',
      "counts = {}",
      "for i in issues:",
      "    who = i['assignee']['username'] if i['assignee'] else 'unassigned'",
      "    counts[who] = counts.get(who, 0) + 1",
      "chart = antv_chart.generate_pie_chart(data=[{'category': k, 'value': v} for k, v in counts.items()], title='Open issues by assignee')",
      'slack.slack_post_message(channel_id="C02ENGTRI", text=f"Open issues in acme/platform by assignee: {chart}")',
      "RESULT = counts",
    ),
    searches: ["list gitlab issues", "generate a pie chart", "post a message to a slack channel"],
    answer: "jdoe has 3 of the 5 open issues, lkim and apatel one each; the pie chart is in #eng-triage.",
  },
];

export const TASKS: readonly Task[] = [...ROUND_6, ...ROUND_11, ...ROUND_16];
