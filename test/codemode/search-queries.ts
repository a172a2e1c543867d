// Fifty requests a model might type into searchTools while working against the real-16 catalog
// (/work/shared/catalogs/real-16.json), each with the one tool that answers it best, as
// `server.tool` (upstream name). Most are phrased in the user's words rather than the tool's, and
// where two servers offer the same tool (GitHub and GitLab, Playwright and Chrome DevTools) the
// query names the product, as a model that was told which service to use would.

/**
 * The most o200k tokens a brief searchTools hit may take at the 90th percentile, over the
 * default 10 hits of every query here on real-16 (bench:search records it, search.test.ts holds it).
 */
export const BRIEF_HIT_P90_BUDGET = 110;

export interface SearchQuery {
  query: string;
  expected: string;
}

export const SEARCH_QUERIES: readonly SearchQuery[] = [
  // github
  { query: "open a new bug report in a GitHub repo", expected: "github.create_issue" },
  { query: "read the contents of a file stored in a github repository", expected: "github.get_file_contents" },
  { query: "merge a pull request on github", expected: "github.merge_pull_request" },
  { query: "which files were changed by a github pull request", expected: "github.get_pull_request_files" },
  { query: "leave a comment on an existing github issue", expected: "github.add_issue_comment" },
  { query: "copy someone's github repository into my own account", expected: "github.fork_repository" },

  // firecrawl
  { query: "scrape a single web page and get its content as markdown", expected: "firecrawl.firecrawl_scrape" },
  { query: "discover every URL of a website", expected: "firecrawl.firecrawl_map" },
  { query: "crawl a whole site starting from a url", expected: "firecrawl.firecrawl_crawl" },
  { query: "find arXiv papers about a research topic", expected: "firecrawl.firecrawl_research_search_papers" },
  { query: "pull structured data out of web pages using an LLM", expected: "firecrawl.firecrawl_extract" },
  { query: "is my crawl job finished yet", expected: "firecrawl.firecrawl_check_crawl_status" },

  // filesystem
  { query: "show what is inside a folder", expected: "filesystem.list_directory" },
  { query: "rename a file on disk", expected: "filesystem.move_file" },
  { query: "overwrite a file with new text", expected: "filesystem.write_file" },
  { query: "make a new folder", expected: "filesystem.create_directory" },
  { query: "file size and modification time metadata", expected: "filesystem.get_file_info" },
  { query: "find files matching a glob pattern recursively", expected: "filesystem.search_files" },

  // everything
  { query: "add two numbers", expected: "everything.get-sum" },
  { query: "print the environment variables of the server", expected: "everything.get-env" },

  // memory
  { query: "store new entities in the knowledge graph", expected: "memory.create_entities" },
  { query: "attach more observations to an entity already in memory", expected: "memory.add_observations" },
  { query: "dump the whole knowledge graph", expected: "memory.read_graph" },

  // slack
  { query: "send a message to a slack channel", expected: "slack.slack_post_message" },
  { query: "react to a slack message with an emoji", expected: "slack.slack_add_reaction" },
  { query: "fetch recent messages posted in a slack channel", expected: "slack.slack_get_channel_history" },
  { query: "answer inside a slack thread", expected: "slack.slack_reply_to_thread" },

  // shortcut
  { query: "create a new shortcut story", expected: "shortcut.stories-create" },
  { query: "who am I in shortcut", expected: "shortcut.users-get-current" },
  { query: "add a checklist item to a story", expected: "shortcut.stories-add-task" },

  // mongodb
  { query: "count documents in a mongodb collection that match a query", expected: "mongodb.count" },
  { query: "which databases exist on this mongodb server", expected: "mongodb.list-databases" },
  { query: "bulk insert documents into a mongo collection", expected: "mongodb.insert-many" },
  { query: "infer the schema of a mongodb collection", expected: "mongodb.collection-schema" },

  // playwright
  { query: "capture a screenshot of the current page with playwright", expected: "playwright.browser_take_screenshot" },
  { query: "playwright: go to a url in the browser", expected: "playwright.browser_navigate" },

  // notion
  { query: "search notion pages by their title", expected: "notion.API-post-search" },
  { query: "add a new page to notion", expected: "notion.API-post-page" },

  // kubernetes
  { query: "view logs from a kubernetes pod", expected: "kubernetes.kubectl_logs" },
  { query: "change the number of replicas of a deployment", expected: "kubernetes.kubectl_scale" },
  { query: "deploy a helm chart to the cluster", expected: "kubernetes.install_helm_chart" },
  { query: "run a command inside a running pod container", expected: "kubernetes.exec_in_pod" },

  // gitlab
  { query: "open a merge request on gitlab from a feature branch", expected: "gitlab.create_merge_request" },
  { query: "give my approval to a gitlab merge request", expected: "gitlab.approve_merge_request" },
  { query: "what is on my gitlab to-do list", expected: "gitlab.list_todos" },

  // ms365
  { query: "send an email through outlook", expected: "ms365.send-mail" },
  { query: "list the emails in my outlook inbox", expected: "ms365.list-mail-messages" },

  // chrome_devtools
  { query: "run a lighthouse audit for accessibility and SEO", expected: "chrome_devtools.lighthouse_audit" },

  // antv_chart
  { query: "draw a pie chart of market share", expected: "antv_chart.generate_pie_chart" },

  // brave_search
  { query: "search the web for the latest news articles on a topic with brave", expected: "brave_search.brave_news_search" },
];

// Written after the first measurement of SEARCH_QUERIES and before any tuning. No rule or weight
// was fitted to these queries, but their figures were in view when the synonym defaults were
// chosen (the verb synonyms lost hits here too, one reason they are off), so they estimate, a
// little optimistically, how the ranking does on requests it was not tuned on.
export const HELDOUT_QUERIES: readonly SearchQuery[] = [
  { query: "list branches of a gitlab project", expected: "gitlab.list_branches" },
  { query: "delete an issue in gitlab", expected: "gitlab.delete_issue" },
  { query: "get the diff of a commit in gitlab", expected: "gitlab.get_commit_diff" },
  { query: "move an email to another folder in outlook", expected: "ms365.move-mail-message" },
  { query: "reply to everyone on an outlook email", expected: "ms365.reply-all-mail-message" },
  { query: "sign in to my microsoft account", expected: "ms365.login" },
  { query: "click an element on the page in chrome devtools", expected: "chrome_devtools.click" },
  { query: "read the console log of the page in chrome", expected: "chrome_devtools.list_console_messages" },
  { query: "open a new browser tab with chrome devtools", expected: "chrome_devtools.new_page" },
  { query: "make a bar chart comparing categories", expected: "antv_chart.generate_bar_chart" },
  { query: "draw a mind map", expected: "antv_chart.generate_mind_map" },
  { query: "retrieve a notion database", expected: "notion.API-retrieve-a-database" },
  { query: "comment on a notion page", expected: "notion.API-create-a-comment" },
  { query: "search the web with brave", expected: "brave_search.brave_web_search" },
  { query: "find pictures of a landmark", expected: "brave_search.brave_image_search" },
  { query: "apply a yaml manifest to kubernetes", expected: "kubernetes.kubectl_apply" },
  { query: "forward a local port to a kubernetes service", expected: "kubernetes.port_forward" },
  { query: "edit some lines in a text file", expected: "filesystem.edit_file" },
  { query: "remove relations between entities in the knowledge graph", expected: "memory.delete_relations" },
  { query: "get every slack user in the workspace", expected: "slack.slack_get_users" },
  { query: "create an index on a mongo collection", expected: "mongodb.create-index" },
  { query: "drop a whole mongodb database", expected: "mongodb.drop-database" },
  { query: "attach a file to a shortcut story", expected: "shortcut.stories-upload-file" },
  { query: "type text into an input field with playwright", expected: "playwright.browser_type" },
  { query: "show the open pull requests of a github repo", expected: "github.list_pull_requests" },
];
