<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/papershelf/gui/actions.py" line="+63"/>
        <source>Open Library &amp;File…</source>
        <translation>打开文献库文件(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open another library file (this window closes)</source>
        <translation>打开另一个文献库文件（此窗口将关闭）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open S&amp;hared Library…</source>
        <translation>打开共享文献库(&amp;H)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open a library a group shares on a PostgreSQL server (this window closes)</source>
        <translation>打开小组在 PostgreSQL 服务器上共享的文献库（此窗口将关闭）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New Paper…</source>
        <translation>新建论文(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add a paper by hand: choose its type, then fill in its fields</source>
        <translation>手动添加论文：选择类型，然后填写各字段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Import abstract lists and BibTeX files</source>
        <translation>导入摘要列表和 BibTeX 文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add by I&amp;dentifier…</source>
        <translation>按标识符添加(&amp;D)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add papers by DOI, arXiv id, OpenReview, PMLR, ACL Anthology or DBLP link, or title, looked up online</source>
        <translation>按 DOI、arXiv 编号、OpenReview、PMLR、ACL Anthology 或 DBLP 链接，或标题在线查找并添加论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export &amp;Selection…</source>
        <translation>导出所选(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the selected papers to a BibTeX, RIS or CSL-JSON file</source>
        <translation>将所选论文写入 BibTeX、RIS 或 CSL-JSON 文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export &amp;Current List…</source>
        <translation>导出当前列表(&amp;C)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write every paper of the current list to a BibTeX, RIS or CSL-JSON file</source>
        <translation>将当前列表中的所有论文写入 BibTeX、RIS 或 CSL-JSON 文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export S&amp;tarred Papers…</source>
        <translation>导出星标论文(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write every starred paper to a BibTeX, RIS or CSL-JSON file</source>
        <translation>将所有星标论文写入 BibTeX、RIS 或 CSL-JSON 文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Papers Cited in a &amp;LaTeX Document…</source>
        <translation>导出 LaTeX 文档引用的论文(&amp;L)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a document&apos;s .aux (or biblatex&apos;s .bcf) file: write exactly the papers it cites</source>
        <translation>选择 LaTeX 编译时写下的引用记录文件：只写出文档引用的论文</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;Backups…</source>
        <translation>备份(&amp;B)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back the library up now, see its backups, restore one</source>
        <translation>立即备份文献库、查看备份、恢复备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Close Papershelf</source>
        <translation>关闭 Papershelf</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="+476"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Undo the last change</source>
        <translation>撤销上一次更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="+2"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Redo the change just undone</source>
        <translation>重做刚刚撤销的更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Copy BibTeX</source>
        <translation>复制 BibTeX(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the selected papers&apos; BibTeX to the clipboard</source>
        <translation>把所选论文的 BibTeX 复制到剪贴板</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy Ci&amp;tation</source>
        <translation>复制引用(&amp;T)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy a citation of the selected papers (\cite{…}, or the form chosen in Preferences) to the clipboard</source>
        <translation>将所选论文的引用（\cite{…}，或在首选项中选择的形式）复制到剪贴板</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy as Formatted &amp;Bibliography</source>
        <translation>复制为格式化参考文献(&amp;B)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the selected papers&apos; bibliography in the style chosen in Preferences (APA, IEEE, …), for a word processor or as plain text</source>
        <translation>按首选项中选定的样式（APA、IEEE 等）复制所选论文的参考文献，可粘贴到文字处理软件或作为纯文本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pa&amp;ste</source>
        <translation>粘贴(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the papers on the clipboard: BibTeX entries, or DOIs, arXiv ids, links or titles</source>
        <translation>添加剪贴板上的论文：BibTeX 条目，或 DOI、arXiv 编号、链接或标题</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Select &amp;All</source>
        <translation>全选(&amp;A)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Select every paper of the list</source>
        <translation>选中列表中的所有论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Search titles, abstracts, authors and notes</source>
        <translation>搜索标题、摘要、作者和笔记</translation>
    </message>
    <message>
        <location line="+2"/>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+71"/>
        <source>&amp;Delete</source>
        <translation>删除(&amp;D)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Delete the selected papers (can be undone)</source>
        <translation>删除所选论文（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Citation key pattern and BibTeX export defaults</source>
        <translation>引用键模式与 BibTeX 导出默认设置</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;All Papers</source>
        <translation>全部论文(&amp;A)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show every paper</source>
        <translation>显示所有论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Unread</source>
        <translation>未读(&amp;U)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the unread papers</source>
        <translation>显示未读论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Reading</source>
        <translation>在读(&amp;R)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the papers being read</source>
        <translation>显示正在阅读的论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>R&amp;ead</source>
        <translation>已读(&amp;E)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the read papers</source>
        <translation>显示已读论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Starred</source>
        <translation>星标(&amp;S)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Show the starred papers</source>
        <translation>显示星标论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save Searc&amp;h…</source>
        <translation>保存搜索(&amp;H)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Save the current search under a name, listed in the sidebar with its count</source>
        <translation>将当前搜索以一个名称保存，列在侧栏中并显示其论文数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sort by Best &amp;Match</source>
        <translation>按最佳匹配排序(&amp;M)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List a search&apos;s papers best match first: its words count most in the title, then the authors, the abstract, the notes</source>
        <translation>搜索结果按匹配程度排列：标题中的词最重要，其次是作者、摘要、笔记</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reset &amp;Layout</source>
        <translation>重置布局(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore the default column widths and pane sizes</source>
        <translation>恢复默认的列宽和窗格大小</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read PDF</source>
        <translation>阅读 PDF</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read the paper&apos;s attached PDF in a tab of the window: highlight, annotate, find (Shift+O opens it in your PDF viewer)</source>
        <translation>在窗口的标签页中阅读论文附带的 PDF：高亮、批注、查找（Shift+O 用你的 PDF 阅读器打开）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close Reader Tab</source>
        <translation>关闭阅读标签页</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Close the reader tab shown</source>
        <translation>关闭当前显示的阅读标签页</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;Web Page</source>
        <translation>打开网页(&amp;W)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open the paper&apos;s page (proceedings, DOI, arXiv…) in the web browser</source>
        <translation>在浏览器中打开论文页面（会议论文集、DOI、arXiv…）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;PDF</source>
        <translation>打开 PDF(&amp;P)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open the paper&apos;s attached PDF, or else its PDF online in the web browser</source>
        <translation>打开论文附加的 PDF；没有时在浏览器中打开其在线 PDF</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attac&amp;h PDF…</source>
        <translation>附加 PDF(&amp;H)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Attach a PDF file to the current paper, copied into the library&apos;s files folder (also: drop a PDF on the paper&apos;s row)</source>
        <translation>为当前论文附加一个 PDF 文件，复制到文献库的 files 文件夹（也可以把 PDF 拖放到论文所在的行上）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Down&amp;load PDF</source>
        <translation>下载 PDF(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Download the PDF each selected paper names (its own link, PMLR, arXiv, OpenReview) and attach it</source>
        <translation>下载所选每篇论文指向的 PDF（其自身链接、PMLR、arXiv、OpenReview）并附加到论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Detach Attached F&amp;iles</source>
        <translation>移除附加的文件(&amp;I)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take the attached files off the selected papers; the files stay in the library&apos;s files folder (can be undone)</source>
        <translation>从所选论文移除附加的文件；文件仍保留在文献库的 files 文件夹中（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Star / Unstar</source>
        <translation>加星标 / 取消星标(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Star the selected papers (unstar them if all are starred)</source>
        <translation>为所选论文加星标（若已全部加星标则取消）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Star</source>
        <translation>星标</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cycle &amp;Read State</source>
        <translation>切换阅读状态(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unread → reading → read → unread</source>
        <translation>未读 → 在读 → 已读 → 未读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read State</source>
        <translation>阅读状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark &amp;Unread</source>
        <translation>标记为未读(&amp;U)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mark the selected papers unread</source>
        <translation>把所选论文标记为未读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Mark Rea&amp;ding</source>
        <translation>标记为在读(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark the selected papers as being read</source>
        <translation>把所选论文标记为正在阅读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mark R&amp;ead</source>
        <translation>标记为已读(&amp;E)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Mark the selected papers read</source>
        <translation>把所选论文标记为已读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next Paper</source>
        <translation>下一篇论文(&amp;N)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Go to the next paper (also Down)</source>
        <translation>转到下一篇论文（也可按“下”方向键）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Pre&amp;vious Paper</source>
        <translation>上一篇论文(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to the previous paper (also Up)</source>
        <translation>转到上一篇论文（也可按“上”方向键）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ne&amp;xt Unread Paper</source>
        <translation>下一篇未读论文(&amp;X)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Go to the next unread paper</source>
        <translation>转到下一篇未读论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit N&amp;otes</source>
        <translation>编辑笔记(&amp;O)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Jump to the notes of the paper</source>
        <translation>跳转到该论文的笔记</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Add Tag…</source>
        <translation>添加标签(&amp;A)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Put a tag on the selected papers</source>
        <translation>为所选论文添加标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;move Tag…</source>
        <translation>移除标签(&amp;M)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Take a tag off the selected papers</source>
        <translation>从所选论文上移除一个标签</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit &amp;Bibliographic Fields</source>
        <translation>编辑书目字段(&amp;B)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit every field of the current paper: title, authors, year, venue, DOI, …</source>
        <translation>编辑当前论文的每个字段：标题、作者、年份、出处、DOI……</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit BibTeX Sour&amp;ce</source>
        <translation>编辑 BibTeX 源码(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit the current paper&apos;s BibTeX entry as text</source>
        <translation>以文本编辑当前论文的 BibTeX 条目</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit Citation &amp;Key…</source>
        <translation>编辑引用键(&amp;K)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change the citation key of the current paper</source>
        <translation>修改当前论文的引用键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Re&amp;generate Citation Keys…</source>
        <translation>重新生成引用键(&amp;G)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the selected papers new keys from the key pattern (can be undone)</source>
        <translation>按引用键模式为所选论文生成新的引用键（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find Duplicates…</source>
        <translation>查找重复项(&amp;F)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List papers that look like the same paper, and merge them</source>
        <translation>列出看起来是同一篇的论文，并将其合并</translation>
    </message>
    <message>
        <location line="+5"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+67"/>
        <source>Find Me&amp;tadata…</source>
        <translation>查找元数据(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Look the selected papers up (none selected: every paper with a provisional title) in your catalogs and online, and complete them from the candidate you pick (can be undone)</source>
        <translation>在你的目录和网上查找选中的论文（未选中时：所有标题为临时标题的论文），并用你选择的候选项补全（可撤销）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>K&amp;eep / Unkeep</source>
        <translation>保留 / 取消保留(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the selected inbox items past the clean-up of old items (unkeep them if all are kept; can be undone)</source>
        <translation>让所选收件箱条目不被旧条目清理移除（若已全部保留则取消保留；可撤销）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>List every keyboard shortcut</source>
        <translation>列出所有键盘快捷键</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About Papershelf</source>
        <translation>关于 Papershelf(&amp;A)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Version and library location</source>
        <translation>版本和文献库位置</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/dialogs.py" line="+48"/>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Import Finished</source>
        <translation>导入完成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Import Cancelled</source>
        <translation>导入已取消</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>{path}: not imported: {reason}</source>
        <translation>{path}：未导入：{reason}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Note: {notice}</source>
        <translation>注意：{notice}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Each file, problems and notes:</source>
        <translation>各文件、问题与备注：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Problems and notes:</source>
        <translation>问题与提示：</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Incomplete Entries</source>
        <translation>不完整的条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{count} of the {total} papers to export are incomplete.</source>
        <translation>待导出的 {total} 篇论文中有 {count} 篇不完整。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>They lack authors, a real title or a year; a bibliography would show the gaps. Export them anyway?</source>
        <translation>它们缺少作者、正式标题或年份，参考文献列表中会显示这些空缺。仍要导出吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>… {n} more</source>
        <translation>…… 另有 {n} 条</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export Anyway</source>
        <translation>仍然导出</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Regenerate Citation Keys</source>
        <translation>重新生成引用键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the selected paper a new citation key?</source>
        <translation>要为所选论文生成新的引用键吗？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Give the {n} selected papers new citation keys?</source>
        <translation>要为所选的 {n} 篇论文生成新的引用键吗？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Keys are built from the pattern &lt;tt&gt;{pattern}&lt;/tt&gt; (Edit › Preferences). Documents that cite the old keys will not find them; Undo restores them.</source>
        <translation>引用键按模式 &lt;tt&gt;{pattern}&lt;/tt&gt; 生成（编辑 › 首选项）。引用旧键的文档将找不到它们；撤销可以恢复旧键。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Regenerate</source>
        <translation>重新生成</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Edit Citation Key</source>
        <translation>编辑引用键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Citation key of “{title}”:</source>
        <translation>“{title}”的引用键：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use letters, digits and - _ : . / only; no other paper may have the same key.</source>
        <translation>只能使用字母、数字和 - _ : . /；不能与其他论文的引用键相同。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>New Paper</source>
        <translation>新建论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type of the entry:</source>
        <translation>条目类型：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Title (the other fields are filled in next):</source>
        <translation>标题（其余字段随后填写）：</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>&amp;Share with the group (every member sees it)</source>
        <translation>与小组共享(每位成员都能看到)(&amp;S)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Add Tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tag for the selected papers (separate several with commas):</source>
        <translation>为所选论文添加的标签（多个标签用逗号分隔）：</translation>
    </message>
    <message>
        <location line="+32"/>
        <location line="+3"/>
        <source>Remove Tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>The selected papers have no tags.</source>
        <translation>所选论文没有标签。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Tag to take off the selected papers:</source>
        <translation>要从所选论文上移除的标签：</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Next / previous paper</source>
        <translation>下一篇 / 上一篇论文</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Down / Up</source>
        <translation>下 / 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Extend the selection</source>
        <translation>扩展选择</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shift+Down / Shift+Up, Shift+click</source>
        <translation>Shift+下 / Shift+上，Shift+单击</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Clear the search</source>
        <translation>清除搜索</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Escape (in the search field)</source>
        <translation>Esc（在搜索框中）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Single-key shortcuts work while the paper list has the focus.</source>
        <translation>单键快捷键仅在论文列表获得焦点时有效。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>About Papershelf</source>
        <translation>关于 Papershelf</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;Papershelf {version}&lt;/b&gt;</source>
        <translation>&lt;b&gt;Papershelf {version}&lt;/b&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A reading list for researchers: triage, annotate and cite papers.&lt;br&gt;&lt;br&gt;Library: {location}&lt;br&gt;Licence: GPL-3.0-or-later</source>
        <translation>面向研究者的阅读清单：筛选、批注并引用论文。&lt;br&gt;&lt;br&gt;文献库：{location}&lt;br&gt;许可证：GPL-3.0-or-later</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/shell.py" line="+55"/>
        <source>1 paper</source>
        <translation>1 篇论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+476"/>
        <location filename="../../desktop/papershelf/gui/shell.py" line="+0"/>
        <source>{n} papers</source>
        <translation>{n} 篇论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="-356"/>
        <source>{name} — Papershelf</source>
        <translation>{name} — Papershelf</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Library</source>
        <translation>文献库</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Paper</source>
        <translation>论文(&amp;P)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Search titles, abstracts, notes…</source>
        <translation>搜索标题、摘要、笔记…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full-text search as you type ({keys}); Escape clears</source>
        <translation>输入即全文搜索（{keys}）；按 Esc 清除</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/add_dialog.py" line="+95"/>
        <source>Add by Identifier</source>
        <translation>按标识符添加</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One paper per line: a DOI, an arXiv id, an OpenReview, PMLR, ACL Anthology or DBLP link, or a title. Each is looked up online and added, or completes the paper the library already has.</source>
        <translation>每行一篇论文：DOI、arXiv 编号、OpenReview、PMLR、ACL Anthology 或 DBLP 链接，或标题。每一项都会在线查找并添加，或补全文献库中已有的论文。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Offline mode is on (Edit › Preferences › Network): nothing can be looked up until you go online.</source>
        <translation>离线模式已开启（编辑 › 首选项 › 网络）：联网之前无法查询任何内容。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add</source>
        <translation>添加(&amp;A)</translation>
    </message>
    <message>
        <location line="+64"/>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="+19"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-397"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop looking papers up; nothing is added</source>
        <translation>停止查找；不会添加任何论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Look up again the papers no service could be reached for</source>
        <translation>重新查询未能连上任何服务的论文</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Close this message</source>
        <translation>关闭此消息</translation>
    </message>
    <message>
        <location line="+42"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+117"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>That text is not a list of identifiers; use File › Add by Identifier… to add papers by DOI, arXiv id, link or title.</source>
        <translation>这段文字不是标识符列表；请使用“文件 › 按标识符添加…”按 DOI、arXiv 编号、链接或标题添加论文。</translation>
    </message>
    <message>
        <location line="+7"/>
        <location filename="../../desktop/papershelf/gui/outcomes.py" line="+104"/>
        <source>Nothing was added: {reason}</source>
        <translation>未添加任何论文：{reason}</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Queued after the papers being looked up</source>
        <translation>排在正在查找的论文之后</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+22"/>
        <source>Looking up {n} papers…</source>
        <translation>正在查找 {n} 篇论文…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Looking up {what}…</source>
        <translation>正在查找 {what}…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/importing.py" line="+105"/>
        <source>Stop the import; nothing of the file being read is written</source>
        <translation>停止导入；正在读取的文件不会写入任何内容</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="+4"/>
        <source>Indexing for search %p%</source>
        <translation>正在建立搜索索引 %p%</translation>
    </message>
    <message>
        <location line="-84"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Export BibTeX, RIS or CSL-JSON: the selection, the list, the starred papers or those a document cites</source>
        <translation>导出 BibTeX、RIS 或 CSL-JSON：所选、列表、星标论文或文档引用的论文</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Papers of a big import become searchable as the index is built</source>
        <translation>大批导入的论文会在索引建立后变为可搜索</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/listing.py" line="+149"/>
        <source>{shown}+ papers, counting…</source>
        <translation>已显示 {shown}+ 篇论文，正在统计…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{shown} of {total} papers match</source>
        <translation>{total} 篇中有 {shown} 篇匹配</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{papers} · {query}</source>
        <translation>{papers} · {query}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{papers} · {n} selected</source>
        <translation>{papers} · 已选 {n} 篇</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&lt;p&gt;&lt;b&gt;This library has no papers yet.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;&lt;a href=&apos;import&apos;&gt;Import…&lt;/a&gt; a list of abstracts or a .bib file ({import_key}),&lt;br&gt;&lt;a href=&apos;add&apos;&gt;Add by Identifier…&lt;/a&gt; a DOI, an arXiv id or a title ({add_key}),&lt;br&gt;or drop files here.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;这个文献库还没有论文。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;&lt;a href=&apos;import&apos;&gt;导入…&lt;/a&gt;摘要列表或 .bib 文件（{import_key}），&lt;br&gt;&lt;a href=&apos;add&apos;&gt;按标识符添加…&lt;/a&gt;DOI、arXiv 编号或标题（{add_key}），&lt;br&gt;或把文件拖放到这里。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;p&gt;&lt;b&gt;No paper matches “{query}”.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;{reading}&lt;/p&gt;&lt;p&gt;Clear the search (Escape), try fewer words, or choose another list in the sidebar.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;没有论文匹配“{query}”。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;{reading}&lt;/p&gt;&lt;p&gt;清除搜索（Esc），减少关键词，或在侧栏中选择其他列表。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&lt;p&gt;&lt;b&gt;No papers match.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Clear the search (Escape) or choose another list in the sidebar.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;没有匹配的论文。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;清除搜索（Escape），或在侧栏中选择其他列表。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="+162"/>
        <source>&amp;Undo {what}</source>
        <translation>撤销{what}(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Redo {what}</source>
        <translation>重做{what}(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/listing.py" line="+39"/>
        <source>No unread papers in this list</source>
        <translation>此列表中没有未读论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/triage.py" line="+88"/>
        <source>Deleted {papers}; {undo} brings them back</source>
        <translation>已删除 {papers}；按 {undo} 可恢复</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/dialogs.py" line="-109"/>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="-23"/>
        <source>Save Search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+1"/>
        <source>Name of the saved search “{query}”:</source>
        <translation>已保存搜索“{query}”的名称：</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/feeds.py" line="+328"/>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+8"/>
        <source>&amp;Rename…</source>
        <translation>重命名(&amp;R)…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+2"/>
        <source>&amp;Edit Query…</source>
        <translation>编辑查询(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/field_editors.py" line="+250"/>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+4"/>
        <source>Move &amp;Up</source>
        <translation>上移(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/saved_searches.py" line="+3"/>
        <source>Move Do&amp;wn</source>
        <translation>下移(&amp;W)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Rename Saved Search</source>
        <translation>重命名已保存的搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New name of the saved search “{name}”:</source>
        <translation>已保存搜索“{name}”的新名称：</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Edit Saved Search</source>
        <translation>编辑已保存的搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Query of the saved search “{name}”:</source>
        <translation>已保存搜索“{name}”的查询：</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/editing.py" line="+157"/>
        <source>The keys already follow the pattern</source>
        <translation>引用键已符合该模式</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/admin.py" line="+110"/>
        <source>No daily backup: {reason}</source>
        <translation>未能完成每日备份：{reason}</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>This library is on a database server: back it up with the server&apos;s own tools (pg_dump).</source>
        <translation>此文献库位于数据库服务器上：请使用服务器自带的工具（pg_dump）备份。</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>New papers get citation keys from {pattern}</source>
        <translation>新论文将按 {pattern} 生成引用键</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/importing.py" line="-23"/>
        <source>Import Papers</source>
        <translation>导入论文</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+24"/>
        <source>Queued after the running import</source>
        <translation>已排在当前导入之后</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>An import is already running</source>
        <translation>已有一个导入正在进行</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+308"/>
        <location filename="../../desktop/papershelf/gui/features/exporting.py" line="+78"/>
        <source>Papers Cited in a LaTeX Document</source>
        <translation>LaTeX 文档引用的论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/exporting.py" line="+1"/>
        <source>LaTeX&apos;s citations (*.aux *.bcf);;All files (*)</source>
        <translation>LaTeX 的引用 (*.aux *.bcf);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{document} cites papers the library does not have: {keys}</source>
        <translation>{document} 引用了文库中没有的论文：{keys}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>BibTeX (*.bib)</source>
        <translation>BibTeX (*.bib)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>RIS: Zotero, Mendeley, EndNote (*.ris)</source>
        <translation>RIS：Zotero、Mendeley、EndNote (*.ris)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CSL-JSON: Zotero, citeproc (*.json)</source>
        <translation>CSL-JSON：Zotero、citeproc (*.json)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export Papers</source>
        <translation>导出论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/annotations.py" line="+135"/>
        <location filename="../../desktop/papershelf/gui/features/exporting.py" line="+0"/>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/outcomes.py" line="-76"/>
        <source>{n} files</source>
        <translation>{n} 个文件</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/editing.py" line="-92"/>
        <source>{field} (they had removed it)</source>
        <translation>{field}（对方已将其删除）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{field} “{value}”</source>
        <translation>{field}“{value}”</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Someone else had changed this paper while you edited it; yours replaced their {values}.</source>
        <translation>您编辑时其他人也修改了这篇论文；您的值替换了对方的 {values}。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Put Theirs Back</source>
        <translation>恢复对方的值</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/importing.py" line="-20"/>
        <source>Abstract lists, BibTeX, RIS, CSL-JSON, EndNote XML and PubMed (*.txt *.md *.bib *.bibtex *.ris *.json *.xml *.nbib);;Zotero library (zotero.sqlite);;All files (*)</source>
        <translation>摘要列表、BibTeX、RIS、CSL-JSON、EndNote XML 和 PubMed (*.txt *.md *.bib *.bibtex *.ris *.json *.xml *.nbib);;Zotero 文库 (zotero.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+25"/>
        <location line="+15"/>
        <source>Importing {name}…</source>
        <translation>正在导入 {name}…</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Stop the import; nothing of it is written</source>
        <translation>停止导入；不会写入其中任何内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pasted BibTeX</source>
        <translation>粘贴的 BibTeX</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/pdfs.py" line="+63"/>
        <source>Cancelling the download…</source>
        <translation>正在取消下载…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/importing.py" line="+11"/>
        <source>Cancelling the import…</source>
        <translation>正在取消导入…</translation>
    </message>
    <message>
        <location line="+101"/>
        <source>Drop a PDF on a paper&apos;s row to attach it to that paper</source>
        <translation>把 PDF 拖放到某篇论文所在的行上，即可附加到该论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/pdfs.py" line="+46"/>
        <source>{key} names no PDF: add its arXiv id, DOI or a link to it</source>
        <translation>{key} 没有 PDF：请添加其 arXiv 编号、DOI 或链接</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{key} names no web page: add its DOI, arXiv id or a link</source>
        <translation>{key} 没有网页：请添加其 DOI、arXiv 编号或链接</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Could not open {url}</source>
        <translation>无法打开 {url}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Could not open the PDF: no program here opens PDFs. The file is {path}</source>
        <translation>无法打开 PDF：本机没有能打开 PDF 的程序。文件位于 {path}</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Attach PDF</source>
        <translation>附加 PDF</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF files (*.pdf);;All files (*)</source>
        <translation>PDF 文件 (*.pdf);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>A download is already running</source>
        <translation>已有下载正在进行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stop downloading; nothing is attached</source>
        <translation>停止下载；不会附加任何文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Downloading PDFs for {papers}…</source>
        <translation>正在为 {papers} 下载 PDF…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/annotations.py" line="-62"/>
        <location filename="../../desktop/papershelf/gui/features/exporting.py" line="-7"/>
        <source>Nothing to export</source>
        <translation>没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/exporting.py" line="+15"/>
        <source>Checking {papers}…</source>
        <translation>正在检查 {papers}…</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Exporting {papers}…</source>
        <translation>正在导出 {papers}…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Exported {papers} to {path}</source>
        <translation>已将 {papers} 导出到 {path}</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copied {citation}</source>
        <translation>已复制 {citation}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Copied the BibTeX of {papers}</source>
        <translation>已复制 {papers} 的 BibTeX</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/shell.py" line="+64"/>
        <source>Papershelf</source>
        <translation>Papershelf</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/write_queue.py" line="+90"/>
        <source>Redone: {what}</source>
        <translation>已重做：{what}</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Undone: {what}</source>
        <translation>已撤销：{what}</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Another change is still running; try again when it is done.</source>
        <translation>另一项更改仍在进行中，请在其完成后重试。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Changing {n} papers…</source>
        <translation>正在更改 {n} 篇论文…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/operations_files.py" line="+55"/>
        <source>Attach {n} files</source>
        <translation>附加 {n} 个文件</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/outcomes.py" line="+5"/>
        <source>no authors</source>
        <translation>无作者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>provisional title</source>
        <translation>临时标题</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no year</source>
        <translation>无年份</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>{name}: {counts}</source>
        <translation>{name}：{counts}</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{n} added</source>
        <translation>新增 {n} 篇</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} completed</source>
        <translation>补全 {n} 篇</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} already present</source>
        <translation>{n} 篇已存在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} failed</source>
        <translation>{n} 篇失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>(cancelled; the file being read was not imported)</source>
        <translation>（已取消；正在读取的文件未导入）</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>Cancelled; nothing was added</source>
        <translation>已取消；未添加任何论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Nothing was added: the library could not be written</source>
        <translation>未添加任何论文：无法写入文献库</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Added {added}, completed {completed}, already had {already}, failed {failed}</source>
        <translation>已添加 {added}，已补全 {completed}，已存在 {already}，失败 {failed}</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Cancelled; no PDF was attached</source>
        <translation>已取消；没有附加任何 PDF</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No PDF was attached: the library could not be written</source>
        <translation>没有附加任何 PDF：无法写入文献库</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No PDF was attached: {reason}</source>
        <translation>没有附加任何 PDF：{reason}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>1 PDF attached, {failed} failed</source>
        <translation>已附加 1 个 PDF，{failed} 个失败</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} PDFs attached, {failed} failed</source>
        <translation>已附加 {n} 个 PDF，{failed} 个失败</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+23"/>
        <location filename="../../desktop/papershelf/gui/outcomes.py" line="-42"/>
        <source>Note: {note}</source>
        <translation>注意：{note}</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+68"/>
        <source>Starred (click or press S to unstar)</source>
        <translation>已加星标（单击或按 S 取消星标）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not starred (click or press S to star)</source>
        <translation>未加星标（单击或按 S 加星标）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../../desktop/papershelf/gui/preferences.py" line="+445"/>
        <source>Reading</source>
        <translation>在读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read</source>
        <translation>已读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{state} (click or press R: unread → reading → read)</source>
        <translation>{state}（单击或按 R：未读 → 在读 → 已读）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Kept: stays in the inbox past the clean-up of old items (Shift+K unkeeps it)</source>
        <translation>已保留：清理旧条目时仍留在收件箱中（Shift+K 取消保留）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Provisional title drawn from the abstract; import the paper&apos;s BibTeX entry or edit the title to replace it.</source>
        <translation>临时标题取自摘要；导入该论文的 BibTeX 条目或编辑标题即可替换。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Retracted: a retraction notice names this paper (see the details)</source>
        <translation>已撤稿：有撤稿声明指向这篇论文（见详情）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>An expression of concern was published about this paper (see the details)</source>
        <translation>这篇论文已被发表关注声明（见详情）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A correction was published for this paper (see the details)</source>
        <translation>这篇论文已发表更正（见详情）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Starred</source>
        <translation>星标</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Read state</source>
        <translation>阅读状态</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-240"/>
        <source>Find Me&amp;tadata for Provisional Papers…</source>
        <translation>为临时标题的论文查找元数据(&amp;T)…</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Find Metadata</source>
        <translation>查找元数据</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Candidates for each paper from your conference catalogs and, unless Papershelf is offline, OpenAlex, Semantic Scholar and DBLP. Tick the one to use and Accept it, or accept every clear winner at once. A paper keeps its citation key, notes, star, read state and tags; undo takes a completion back.</source>
        <translation>每篇论文的候选项来自你的会议目录，以及（未处于离线模式时）OpenAlex、Semantic Scholar 和 DBLP。勾选要使用的一项并接受，或一次接受所有明确的最佳匹配。论文会保留其引用键、笔记、星标、阅读状态和标签；撤销可收回补全。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Stop looking papers up (nothing is changed)</source>
        <translation>停止查找（不做任何更改）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/entry_editor.py" line="+73"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+11"/>
        <location line="+472"/>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+3"/>
        <location filename="../../desktop/papershelf/gui/features/around.py" line="+114"/>
        <location line="+47"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-472"/>
        <location line="+472"/>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+4"/>
        <location filename="../../desktop/papershelf/gui/features/around.py" line="-47"/>
        <location line="+47"/>
        <source>Authors</source>
        <translation>作者</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-472"/>
        <location line="+473"/>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+2"/>
        <source>Venue</source>
        <translation>出处</translation>
    </message>
    <message>
        <location line="-473"/>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Would be</source>
        <translation>将变为</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>&amp;Accept</source>
        <translation>接受(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Complete the current paper from the candidate ticked for it (can be undone)</source>
        <translation>用勾选的候选项补全当前论文（可撤销）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+355"/>
        <source>Accept All &amp;Confident</source>
        <translation>接受所有可信匹配(&amp;C)</translation>
    </message>
    <message>
        <location line="-354"/>
        <source>Complete every paper whose best candidate is a clear winner from that candidate, as one step (can be undone)</source>
        <translation>用明确的最佳候选项补全每篇论文，作为一步操作（可撤销）</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Looking up the papers with a provisional title…</source>
        <translation>正在查找标题为临时标题的论文…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Looking up 1 paper…</source>
        <translation>正在查找 1 篇论文…</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>The lookup failed: {reason}</source>
        <translation>查找失败：{reason}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancelled after {done} of {n} papers; nothing was changed.</source>
        <translation>已在 {n} 篇中的第 {done} 篇后取消；未做任何更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No paper has a provisional title.</source>
        <translation>没有标题为临时标题的论文。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{n} looked up: {sure} confident, {none} without a candidate.</source>
        <translation>已查找 {n} 篇：{sure} 篇可信，{none} 篇没有候选项。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>et al.</source>
        <translation>等</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why: {why}</source>
        <translation>依据：{why}</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>(provisional title)</source>
        <translation>（临时标题）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>no candidate found</source>
        <translation>未找到候选项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>nothing to change</source>
        <translation>无需更改</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>confident match</source>
        <translation>可信匹配</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>picked by its place in the list, not by its score</source>
        <translation>按其在列表中的位置选中，而非按得分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>picked though another scores higher</source>
        <translation>已选中，尽管另一候选得分更高</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{n} candidates</source>
        <translation>{n} 个候选项</translation>
    </message>
    <message>
        <location line="+62"/>
        <source>No candidate was found for {key}.</source>
        <translation>未找到 {key} 的候选项。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Accepting it would change nothing.</source>
        <translation>接受它不会带来任何更改。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>What accepting it would change:</source>
        <translation>接受它将更改：</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Completed {what}. {undo} undoes it.</source>
        <translation>已补全 {what}。{undo} 可撤销。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing was completed: the papers changed since they were looked up.</source>
        <translation>未补全任何论文：查找后论文已被更改。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing was completed: the library could not be written.</source>
        <translation>未补全任何论文：无法写入文献库。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Accept All &amp;Confident ({n})</source>
        <translation>接受所有可信匹配(&amp;C)（{n}）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/entry_editor.py" line="+4"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+64"/>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="-3"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+1"/>
        <source>Volume</source>
        <translation>卷</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Editors</source>
        <translation>编者</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+1"/>
        <source>Pages</source>
        <translation>页码</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+0"/>
        <source>Publisher</source>
        <translation>出版者</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Number</source>
        <translation>期号</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+0"/>
        <source>DOI</source>
        <translation>DOI</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keywords</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Booktitle</source>
        <translation>会议/文集名</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Journal</source>
        <translation>期刊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Published as</source>
        <translation>发表形式</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>School</source>
        <translation>学校</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>机构</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A year still to come</source>
        <translation>这是未来的年份</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A year before 1800</source>
        <translation>早于 1800 年</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Not https: the link is not encrypted</source>
        <translation>不是 https：链接未加密</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All in capitals (BibTeX styles change the case of titles themselves)</source>
        <translation>全部大写（BibTeX 样式会自行调整标题大小写）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/field_editors.py" line="-200"/>
        <source>family name: {family}</source>
        <translation>姓：{family}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>family: {family} · given: {given}</source>
        <translation>姓：{family} · 名：{given}</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Family, Given</source>
        <translation>姓, 名</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Add a name (Doe, Jane; {World Health Organization} for an organisation)</source>
        <translation>添加姓名（Doe, Jane；机构写成 {World Health Organization}）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Remove the name selected</source>
        <translation>删除所选姓名</translation>
    </message>
    <message>
        <location line="+83"/>
        <source>Move &amp;Down</source>
        <translation>下移(&amp;D)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Add a Name</source>
        <translation>添加姓名(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/entry_editor.py" line="+38"/>
        <source>Add Field…</source>
        <translation>添加字段…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another BibTeX field, by its name (note, isbn, series, …)</source>
        <translation>按名称添加另一个 BibTeX 字段（note、isbn、series……）</translation>
    </message>
    <message>
        <location line="+86"/>
        <source>Remove this field</source>
        <translation>删除此字段</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Add Field</source>
        <translation>添加字段</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Name of the BibTeX field (e.g. note, isbn, series):</source>
        <translation>BibTeX 字段名（例如 note、isbn、series）：</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read the entry again and keep what changed (Ctrl+Return; leaving the text does it too)</source>
        <translation>重新读取条目并保存改动（Ctrl+Return；离开文本框时也会保存）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The entry as it is exported; the citation key is changed with Paper › Edit Citation Key…</source>
        <translation>条目按导出时的样子显示；引用键请用“论文 › 编辑引用键…”修改</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>The BibTeX entry of {key} was not applied ({problem}); the text you typed is on the clipboard</source>
        <translation>{key} 的 BibTeX 条目未应用（{problem}）；您输入的文本已复制到剪贴板</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>the citation key is {old} (change it with Paper › Edit Citation Key…)</source>
        <translation>引用键是 {old}（请用“论文 › 编辑引用键…”修改）</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>the BibTeX entry</source>
        <translation>BibTeX 条目</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+1"/>
        <source>OpenReview</source>
        <translation>OpenReview</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF</source>
        <translation>PDF</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/entry_editor.py" line="-358"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+1"/>
        <source>arXiv id</source>
        <translation>arXiv 编号</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/duplicates.py" line="+78"/>
        <source>same title</source>
        <translation>标题相同</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>same DOI</source>
        <translation>DOI 相同</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>same abstract</source>
        <translation>摘要相同</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Find Duplicates</source>
        <translation>查找重复项</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Papers that look like the same paper. &lt;b&gt;Merge&lt;/b&gt; keeps the paper on the left with its citation key, fills its empty fields from the one on the right, joins notes and combines tags; &lt;b&gt;Swap&lt;/b&gt; keeps the right one instead. Undo in the main window separates a merged pair again.</source>
        <translation>看起来是同一篇的论文。&lt;b&gt;合并&lt;/b&gt;保留左侧论文及其引用键，用右侧论文填充其空白字段，并合并笔记和标签；&lt;b&gt;交换&lt;/b&gt;则改为保留右侧论文。在主窗口中撤销可将合并的两篇论文重新分开。</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+1"/>
        <location filename="../../desktop/papershelf/gui/entry_editor.py" line="-2"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-3"/>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+2"/>
        <location filename="../../desktop/papershelf/gui/features/around.py" line="-47"/>
        <location line="+47"/>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Keep</source>
        <translation>保留</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+1"/>
        <source>Key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Merge into it</source>
        <translation>合并到其中</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="-472"/>
        <location filename="../../desktop/papershelf/gui/features/feeds.py" line="-155"/>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>&amp;Refresh</source>
        <translation>刷新(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Look for duplicates again</source>
        <translation>重新查找重复项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Swap</source>
        <translation>交换(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the paper on the right instead (double-click a row does the same)</source>
        <translation>改为保留右侧论文（双击某一行效果相同）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Merge</source>
        <translation>合并(&amp;M)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Merge the paper on the right into the one on the left (can be undone)</source>
        <translation>把右侧论文合并到左侧论文中（可撤销）</translation>
    </message>
    <message>
        <location line="+30"/>
        <location line="+26"/>
        <source>Looking for duplicates…</source>
        <translation>正在查找重复项…</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>No duplicates found</source>
        <translation>未找到重复项</translation>
    </message>
    <message>
        <location line="+60"/>
        <source>Merged {other} into {keep}. {undo} undoes it.</source>
        <translation>已将 {other} 合并到 {keep}。按 {undo} 可撤销。</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="+2"/>
        <source>Added</source>
        <translation>添加时间</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/table_model.py" line="+136"/>
        <source>{column}: click to sort</source>
        <translation>{column}：单击排序</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/preferences.py" line="-319"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Citation Keys &amp;&amp; Export</source>
        <translation>引用键与导出</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Citation keys</source>
        <translation>引用键</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>How a new paper&apos;s citation key is built (Better BibTeX notation)</source>
        <translation>新论文引用键的生成方式（Better BibTeX 语法）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>默认</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the default pattern {pattern}</source>
        <translation>使用默认模式 {pattern}</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Pattern:</source>
        <translation>模式(&amp;P)：</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Fields: {fields}; modifiers: {modifiers}. The pattern applies to papers added from now on; Paper › Regenerate Citation Keys renews existing keys.</source>
        <translation>字段：{fields}；修饰符：{modifiers}。该模式适用于此后添加的论文；“论文 › 重新生成引用键”可更新已有的引用键。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>BibTeX export and Copy BibTeX</source>
        <translation>BibTeX 导出与复制 BibTeX</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>BibTeX</source>
        <translation>BibTeX</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>BibLaTeX (for biber)</source>
        <translation>BibLaTeX（用于 biber）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>BibLaTeX writes date, journaltitle and eprint fields instead of year, journal and note</source>
        <translation>BibLaTeX 写入 date、journaltitle 和 eprint 字段，而不是 year、journal 和 note</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Include &amp;abstracts</source>
        <translation>包含摘要(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Include &amp;notes (as an annote field)</source>
        <translation>包含笔记（作为 annote 字段）(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write accented letters as LaTeX &amp;commands (ASCII only)</source>
        <translation>将带重音的字母写成 LaTeX 命令（仅 ASCII）(&amp;C)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Include attached PDFs as a file fiel&amp;d</source>
        <translation>以 file 字段包含附加的 PDF(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JabRef&apos;s form for BibTeX, Better BibLaTeX&apos;s for BibLaTeX: the paths of the attached PDFs</source>
        <translation>BibTeX 使用 JabRef 的格式，BibLaTeX 使用 Better BibLaTeX 的格式：附加 PDF 的路径</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy Citation</source>
        <translation>复制引用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>What Edit › Copy Citation (Ctrl+Shift+K) puts on the clipboard: LaTeX (natbib, biblatex), pandoc or Typst</source>
        <translation>编辑 › 复制引用（Ctrl+Shift+K）放到剪贴板上的引用写法</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Cite as:</source>
        <translation>引用形式(&amp;C)：</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Language and appearance</source>
        <translation>语言与外观</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+10"/>
        <source>As the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>&amp;Interface:</source>
        <translation>界面(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Takes effect when Papershelf starts again.</source>
        <translation>重新启动 Papershelf 后生效。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>As the system follows the desktop&apos;s light or dark colour scheme</source>
        <translation>“跟随系统”会随桌面的浅色或深色配色而变</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Appearance:</source>
        <translation>外观(&amp;A)：</translation>
    </message>
    <message>
        <location line="-136"/>
        <location line="+140"/>
        <source>Network</source>
        <translation>网络</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Work off&amp;line: ask no web service (answers already fetched are still used)</source>
        <translation>离线工作(&amp;L)：不访问任何网络服务（仍使用已获取的结果）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>name@example.org</source>
        <translation>name@example.org</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sent to Crossref and OpenAlex with each request (their “polite pool”); leave empty to send none</source>
        <translation>随每个请求发送给 Crossref 和 OpenAlex（其“礼貌池”）；留空则不发送</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Contact &amp;e-mail:</source>
        <translation>联系邮箱(&amp;E)：</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete the stored {service} key from the system keyring now</source>
        <translation>立即从系统密钥环中删除已保存的 {service} 密钥</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{service} API key:</source>
        <translation>{service} API 密钥：</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Set in the environment, which wins over these preferences: {variables}</source>
        <translation>已在环境变量中设置，优先于这些首选项：{variables}</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Cannot be stored without a system keyring</source>
        <translation>没有系统密钥环，无法保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A key is stored (type a new one to replace it)</source>
        <translation>已保存密钥（输入新密钥可替换）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No key stored</source>
        <translation>未保存密钥</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No system keyring is available, so API keys cannot be stored here; set {variables} instead.</source>
        <translation>没有可用的系统密钥环，无法在此保存 API 密钥；请改为设置 {variables}。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Keys are kept in the system keyring, never in a file.</source>
        <translation>密钥保存在系统密钥环中，从不写入文件。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>The {service} key was removed from the keyring.</source>
        <translation>{service} 密钥已从密钥环中删除。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Contact e-mail: {problem}</source>
        <translation>联系邮箱：{problem}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>{service} API key: {problem}</source>
        <translation>{service} API 密钥：{problem}</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Network preferences not saved: {error}</source>
        <translation>网络首选项未保存：{error}</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Browser</source>
        <translation>浏览器</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Receive papers from the browser&apos;s &amp;Zotero Connector</source>
        <translation>接收浏览器 &amp;Zotero Connector 发送的论文</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>While the window is open, Save to Zotero in the browser saves into this library (at 127.0.0.1, port 23119; only the extension may send, not web pages). Zotero itself must not be running.</source>
        <translation>窗口打开时，浏览器中的“保存到 Zotero”会保存到此文库（127.0.0.1，端口 23119；只接受浏览器扩展发送，不接受网页）。Zotero 本身不能同时运行。</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Example: &lt;b&gt;&lt;tt&gt;{key}&lt;/tt&gt;&lt;/b&gt; for “{title}”</source>
        <translation>示例：“{title}”的引用键为 &lt;b&gt;&lt;tt&gt;{key}&lt;/tt&gt;&lt;/b&gt;</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/backups.py" line="+70"/>
        <location filename="../../desktop/papershelf/gui/features/admin.py" line="-56"/>
        <source>Backups</source>
        <translation>备份</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Date</source>
        <translation>日期</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="-179"/>
        <source>Auto-export: writing…</source>
        <translation>自动导出：正在写入…</translation>
    </message>
    <message>
        <location line="+25"/>
        <location line="+34"/>
        <source>Auto-export failed: {reason}</source>
        <translation>自动导出失败：{reason}</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Auto-export: {note}</source>
        <translation>自动导出:{note}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Auto-exports up to date</source>
        <translation>自动导出已是最新</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/actions.py" line="-147"/>
        <source>Auto-E&amp;xports…</source>
        <translation>自动导出(&amp;X)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Files kept current as the library changes, such as the .bib a LaTeX document reads</source>
        <translation>随文库变化保持最新的文件，例如 LaTeX 文档读取的 .bib 文件</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+87"/>
        <source>Auto-Exports</source>
        <translation>自动导出</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>These files are rewritten whenever the papers they hold change (only then: a LaTeX build sees no change otherwise).</source>
        <translation>这些文件仅在其所含论文变化时重写（否则 LaTeX 编译不会看到任何变化）。</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/backups.py" line="+1"/>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+5"/>
        <source>Papers</source>
        <translation>论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+0"/>
        <source>File</source>
        <translation>文件</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add…</source>
        <translation>添加(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/field_editors.py" line="+1"/>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+1"/>
        <source>&amp;Remove</source>
        <translation>移除(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+34"/>
        <source>BibTeX (*.bib);;CSL-JSON (*.json);;RIS (*.ris)</source>
        <translation>BibTeX (*.bib);;CSL-JSON (*.json);;RIS (*.ris)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>LaTeX auxiliary files (*.aux *.bcf)</source>
        <translation>LaTeX 辅助文件 (*.aux *.bcf)</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>Papers cited in a LaTeX document (.aux)…</source>
        <translation>LaTeX 文档中引用的论文(.aux)…</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>not written yet</source>
        <translation>尚未写入</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>up to date; {note}</source>
        <translation>已是最新;{note}</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>up to date</source>
        <translation>已是最新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>waiting: {reason}</source>
        <translation>等待中:{reason}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>failed: {reason}</source>
        <translation>失败：{reason}</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>{keys} and {n} more</source>
        <translation>{keys} 等另外 {n} 个</translation>
    </message>
    <message numerus="yes">
        <location line="-5"/>
        <source>%n cited keys not in the library: {keys}</source>
        <translation>
            <numerusform>文献库中没有 %n 个被引用的键：{keys}</numerusform>
        </translation>
    </message>
    <message>
        <location line="+8"/>
        <source>{path}: not there yet (run LaTeX on the document: it writes the .aux)</source>
        <translation>{path}：尚不存在（请先对文档运行 LaTeX，它会写出 .aux 文件）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cited in {document}</source>
        <translation>{document} 中引用的论文</translation>
    </message>
    <message>
        <location line="-135"/>
        <source>Auto-Export To</source>
        <translation>自动导出到</translation>
    </message>
    <message>
        <location line="+26"/>
        <location line="+23"/>
        <source>Auto-Export</source>
        <translation>自动导出</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+87"/>
        <source>Every paper</source>
        <translation>所有论文</translation>
    </message>
    <message>
        <location line="-87"/>
        <location line="+87"/>
        <source>Starred papers</source>
        <translation>星标论文</translation>
    </message>
    <message>
        <location line="-84"/>
        <location line="+81"/>
        <source>Tag: {name}</source>
        <translation>标签：{name}</translation>
    </message>
    <message>
        <location line="-78"/>
        <location line="+80"/>
        <source>Saved search: {name}</source>
        <translation>已保存的搜索：{name}</translation>
    </message>
    <message>
        <location line="-77"/>
        <source>Papers:</source>
        <translation>论文：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/backups.py" line="+14"/>
        <source>Back Up Now</source>
        <translation>立即备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Restore…</source>
        <translation>恢复…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show Folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>daily</source>
        <translation>每日</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>before an upgrade</source>
        <translation>升级前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>made by you</source>
        <translation>手动</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>replaced by a restore</source>
        <translation>恢复时被替换</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Space the backups take together: {size}</source>
        <translation>备份共占用空间：{size}</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Backed up to {path} and checked</source>
        <translation>已备份到 {path} 并完成检查</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Backed up to {path}; checking it…</source>
        <translation>已备份到 {path}；正在检查…</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Papershelf backs your library up on the first start of each day and before every upgrade, and keeps the newest {daily} daily (at most {budget} of them, but always the last two) and {upgrade} pre-upgrade backups in {folder}.</source>
        <translation>Papershelf 会在每天首次启动时和每次升级前备份您的文献库，并在 {folder} 中保留最新的 {daily} 份每日备份（合计至多 {budget}，但始终保留最近两份）和 {upgrade} 份升级前备份。</translation>
    </message>
    <message>
        <location line="+105"/>
        <source>Restore Backup</source>
        <translation>恢复备份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Replace your library by the backup of {date} ({papers} papers)? The library as it is now is kept as a backup too, and Papershelf opens the restored library.</source>
        <translation>用 {date} 的备份（{papers} 篇论文）替换您的文献库吗？当前的文献库也会保留为一份备份，随后 Papershelf 将打开恢复后的文献库。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Your Library Is Damaged</source>
        <translation>您的文献库已损坏</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Papershelf found your library damaged (a crash or a failing disk can do this) and did not change it.

{problem}</source>
        <translation>Papershelf 发现您的文献库已损坏（崩溃或磁盘故障可能导致这种情况），并且没有改动它。

{problem}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The newest sound backup is from {date}, with {papers} papers.</source>
        <translation>最新的完好备份来自 {date}，包含 {papers} 篇论文。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Restore the Backup</source>
        <translation>恢复该备份</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Salvage into a New Library…</source>
        <translation>抢救到新的文献库…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Salvage into</source>
        <translation>抢救到</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Libraries (*.sqlite)</source>
        <translation>文献库 (*.sqlite)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/live.py" line="+192"/>
        <source>Lost the connection to the shared library; reconnecting…</source>
        <translation>与共享文献库的连接已断开；正在重新连接…</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Connected to the shared library again</source>
        <translation>已重新连接到共享文献库</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/shared_dialog.py" line="+110"/>
        <source>this computer</source>
        <translation>本机</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>{database} on {server} as {user}</source>
        <translation>{server} 上的 {database}（用户 {user}）</translation>
    </message>
    <message>
        <location line="+110"/>
        <source>Open Shared Library</source>
        <translation>打开共享文献库</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A library on a PostgreSQL server, shared by a group. Papershelf never saves a password: the server&apos;s is looked up in ~/.pgpass, PGPASSWORD or a service file, or asked for here.</source>
        <translation>小组共享的、位于 PostgreSQL 服务器上的文献库。Papershelf 从不保存密码：服务器密码从 ~/.pgpass、PGPASSWORD 或服务文件中查找，或在此处询问。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Recent:</source>
        <translation>最近(&amp;R)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>db.example.org, or a socket folder; empty: this computer</source>
        <translation>db.example.org，或套接字目录；留空：本机</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Server:</source>
        <translation>服务器(&amp;S)：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Por&amp;t:</source>
        <translation>端口(&amp;T)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Database:</source>
        <translation>数据库(&amp;D)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;User:</source>
        <translation>用户(&amp;U)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Used for this session only, never saved</source>
        <translation>仅用于本次会话，不会保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Password:</source>
        <translation>密码(&amp;P)：</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Connecting to {library}…</source>
        <translation>正在连接 {library}…</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Open &amp;Recent Shared Library</source>
        <translation>打开最近的共享文献库(&amp;R)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Open Library File</source>
        <translation>打开文献库文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Papershelf libraries (*.sqlite);;All files (*)</source>
        <translation>Papershelf 文献库 (*.sqlite);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/record_view.py" line="+90"/>
        <source>Attached files:</source>
        <translation>附加的文件：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>linked</source>
        <translation>链接</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>not on this computer</source>
        <translation>不在这台电脑上</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>text not read yet</source>
        <translation>尚未读取文本</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Proceedings (PMLR)</source>
        <translation>会议论文集（PMLR）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ACL Anthology</source>
        <translation>ACL Anthology</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/metadata_dialog.py" line="+474"/>
        <location filename="../../desktop/papershelf/gui/record_view.py" line="+1"/>
        <source>Web page</source>
        <translation>网页</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/search_field.py" line="+126"/>
        <source>The search language: fields, ranges, OR, NOT… (F1)</source>
        <translation>搜索语法：字段、范围、或、非…（F1）</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>Examples</source>
        <translation>示例</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Search for this</source>
        <translation>搜索此条件</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>words</source>
        <translation>词语</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>papers with all of them, in the title, authors, abstract, notes, tags or PDFs</source>
        <translation>在标题、作者、摘要、笔记、标签或 PDF 中包含全部这些词的论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&quot;a phrase&quot;</source>
        <translation>&quot;一个短语&quot;</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>the words in this order</source>
        <translation>按此顺序出现的这些词</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>words starting with “vari” (as the word being typed does)</source>
        <translation>以“vari”开头的词（正在输入的词也是如此）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>either</source>
        <translation>二者之一</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not this</source>
        <translation>不含此项</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>grouping; AND binds tighter than OR: a b OR c is (a b) OR c</source>
        <translation>分组；AND 比 OR 结合得更紧：a b OR c 即 (a b) OR c</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>words in that field only (au: is author:)</source>
        <translation>仅在该字段中的词（au: 即 author:）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a tag (in quotes when it has spaces)</source>
        <translation>一个标签（含空格时加引号）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a citation key, or the keys starting so</source>
        <translation>一个引用键，或以此开头的引用键</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a DOI; an entry type</source>
        <translation>一个 DOI；一种条目类型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a year or years (also &gt;, &lt;, &lt;=, 2020.. and ..2024)</source>
        <translation>某一年或若干年（也可用 &gt;、&lt;、&lt;=、2020.. 和 ..2024）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>added in the last 30 days, or before them (d, w, m = months, y)</source>
        <translation>最近 30 天内添加的，或更早添加的（d 天、w 周、m 月、y 年）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>added in a month, on a day, since a day; read: the same, for when a paper was marked read</source>
        <translation>在某月、某天或某天以来添加的；read: 用法相同，指论文被标记为已读的时间</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>starred; a read state; with a placeholder title</source>
        <translation>已加星标；阅读状态；标题为占位标题</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>with a PDF, notes, a DOI, an abstract</source>
        <translation>有 PDF、笔记、DOI、摘要</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>by Hinton, 2020 to 2024, no surveys</source>
        <translation>Hinton 的论文，2020 至 2024 年，不含综述</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>tagged “to read”</source>
        <translation>带有“to read”标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>starred, with a PDF</source>
        <translation>已加星标且有 PDF</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at ICML</source>
        <translation>发表于 ICML</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>either word</source>
        <translation>任一词语</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added this week, not read yet</source>
        <translation>本周添加、尚未阅读</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/citations.py" line="+65"/>
        <source>Copied the bibliography of {count} papers ({style})</source>
        <translation>已复制 {count} 篇论文的参考文献（{style}）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copied the bibliography of 1 paper ({style})</source>
        <translation>已复制 1 篇论文的参考文献（{style}）</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>The style of Edit › Copy as Formatted Bibliography (Ctrl+Shift+B)</source>
        <translation>“编辑 › 复制为格式化参考文献”（Ctrl+Shift+B）使用的样式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use a citation style file (.csl) of your own</source>
        <translation>使用自己的引文样式文件（.csl）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Citation Style</source>
        <translation>引文样式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Citation styles (*.csl)</source>
        <translation>引文样式 (*.csl)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>&amp;Bibliography style:</source>
        <translation>参考文献样式(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/connector.py" line="+94"/>
        <source>The Zotero Connector cannot reach Papershelf: port {port} is in use (is Zotero running?)</source>
        <translation>Zotero Connector 无法连接 Papershelf：端口 {port} 已被占用（Zotero 是否正在运行？）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/reading.py" line="+74"/>
        <source>{key} has no PDF on this computer (attach one, or Shift+O opens it online)</source>
        <translation>{key} 在本机上没有 PDF（请附加一个，或按 Shift+O 在线打开）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/retractions.py" line="+46"/>
        <source>… and {n} more</source>
        <translation>…… 另有 {n} 篇</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/actions.py" line="+113"/>
        <source>Papers Around (b&amp;y Citation)…</source>
        <translation>引用关系中的论文(&amp;Y)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The papers the current paper cites and those citing it, from OpenAlex, Semantic Scholar, Crossref or OpenCitations; A adds the selected ones</source>
        <translation>当前论文引用的论文和引用它的论文，来自 OpenAlex、Semantic Scholar、Crossref 或 OpenCitations；按 A 添加所选论文</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/around.py" line="-85"/>
        <source>“{title}” has no DOI or arXiv id: no service can be asked which papers it cites and which cite it.</source>
        <translation>“{title}”没有 DOI 或 arXiv 编号：无法向任何服务查询它引用了哪些论文、哪些论文引用了它。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Papers Around “{title}”</source>
        <translation>“{title}”的引用关系</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Asking OpenAlex, Semantic Scholar, Crossref and OpenCitations…</source>
        <translation>正在查询 OpenAlex、Semantic Scholar、Crossref 和 OpenCitations…</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+114"/>
        <source>References</source>
        <translation>参考文献</translation>
    </message>
    <message>
        <location line="-114"/>
        <location line="+114"/>
        <source>Citing It</source>
        <translation>引用它的论文</translation>
    </message>
    <message>
        <location line="-112"/>
        <source>In Library</source>
        <translation>已在文献库</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Missing From Your Library</source>
        <translation>文献库中缺少的论文</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The abstract of the paper selected</source>
        <translation>所选论文的摘要</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Add Selected</source>
        <translation>添加所选(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add the selected papers by their DOI or arXiv id, looked up and completed as Add by Identifier does (A)</source>
        <translation>按 DOI 或 arXiv 编号添加所选论文，像“按标识符添加”一样查询并补全（A）</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>&amp;Find</source>
        <translation>查找(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask for the references of your newest papers (at most {n}) and count what they cite</source>
        <translation>查询你最新论文（最多 {n} 篇）的参考文献，并统计它们引用的论文</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cited by at least</source>
        <translation>至少被引用次数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cited by at least (of the papers tagged {tag})</source>
        <translation>至少被引用次数（在标签 {tag} 的论文中）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cited By</source>
        <translation>被引用</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Asking for the references of your papers…</source>
        <translation>正在查询你的论文的参考文献…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>{papers} cited by at least {k} of yours missing from your library</source>
        <translation>文献库中缺少被你至少 {k} 篇论文引用的 {papers}</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Adding {papers} by Add by Identifier…</source>
        <translation>正在通过“按标识符添加”添加 {papers}…</translation>
    </message>
    <message>
        <location line="-54"/>
        <source>{what}: {n} from {service}, {have} in your library</source>
        <translation>{what}：{n} 篇来自 {service}，其中 {have} 篇已在文献库</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{what}: no service answered</source>
        <translation>{what}：没有服务应答</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The papers around could not be asked: {error}</source>
        <translation>无法查询引用关系：{error}</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>The service gave no abstract</source>
        <translation>该服务未提供摘要</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Select papers not in your library that have a DOI or an arXiv id to add them.</source>
        <translation>请选择不在文献库中、且有 DOI 或 arXiv 编号的论文来添加。</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/reader/drawing.py" line="+69"/>
        <source>Add Note</source>
        <translation>添加便签</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add a sticky note where you click next (N)</source>
        <translation>在下次点击处添加便签（N）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add Rectangle</source>
        <translation>添加矩形框</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Frame a figure or an equation: drag over it (R, or drag with Alt held)</source>
        <translation>框选图或公式：拖动鼠标框住它（R，或按住 Alt 拖动）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Add Note Here</source>
        <translation>在此添加便签</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/paper_columns.py" line="-20"/>
        <source>page {page} of {count}</source>
        <translation>第 {page} 页，共 {count} 页</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Progress</source>
        <translation>进度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How far you have read the PDF</source>
        <translation>PDF 读到了哪里</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last read</source>
        <translation>上次阅读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>When you last read the PDF</source>
        <translation>上次阅读 PDF 的时间</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/preferences.py" line="-45"/>
        <source>Opening an unread paper&apos;s PDF marks it as being &amp;read</source>
        <translation>打开未读论文的 PDF 时将其标为在读(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/reading.py" line="+13"/>
        <source>No paper has the key {key}</source>
        <translation>没有论文的引用键是 {key}</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+14"/>
        <source>{key} has no PDF on this computer</source>
        <translation>{key} 在这台电脑上没有 PDF</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/pdfs.py" line="+15"/>
        <source>Sending PDFs to the shared library… {percent}%</source>
        <translation>正在将 PDF 发送到共享文献库… {percent}%</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>Sent %n PDFs to the shared library: every member can open them</source>
        <translation>
            <numerusform>已将 %n 个 PDF 发送到共享文献库：每位成员都能打开</numerusform>
        </translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Fetching the PDF of {key} from the shared library… {percent}%</source>
        <translation>正在从共享文献库获取 {key} 的 PDF… {percent}%</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The shared library does not have the PDF of {key} yet: the member who attached it can send it (papershelf upload-files)</source>
        <translation>共享文献库中还没有 {key} 的 PDF：附加它的成员可以发送它（papershelf upload-files）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/actions.py" line="-121"/>
        <source>&amp;Annotations…</source>
        <translation>批注(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the annotations of the selected papers (none selected: of the list) as one Markdown document, with page-exact citations</source>
        <translation>将所选论文（未选择时为当前列表）的批注写成一个 Markdown 文档，附精确到页的引用</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;PDF with Annotations…</source>
        <translation>带批注的 PDF(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write a copy of the current paper&apos;s PDF with its annotations in, for any PDF reader (the library&apos;s file is not changed)</source>
        <translation>写出当前论文 PDF 的副本，其中包含批注，任何 PDF 阅读器都能显示（文库中的文件不会改动）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/annotations.py" line="+2"/>
        <source>Export Annotations</source>
        <translation>导出批注</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown (*.md)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>None of {papers} has annotations: nothing was written</source>
        <translation>{papers} 都没有批注：未写入任何内容</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exported the annotations of {papers} to {path}</source>
        <translation>已将 {papers} 的批注导出到 {path}</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Exporting the annotations of {papers}…</source>
        <translation>正在导出 {papers} 的批注…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export PDF with Annotations</source>
        <translation>导出带批注的 PDF</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>PDF (*.pdf)</source>
        <translation>PDF (*.pdf)</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Wrote {path}: {key}&apos;s PDF with %n annotations</source>
        <translation>
            <numerusform>已写出 {path}：{key} 的 PDF，含 %n 条批注</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Writing {key}&apos;s PDF with its annotations…</source>
        <translation>正在写出 {key} 带批注的 PDF…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/annotation_box.py" line="+65"/>
        <source>p. {label}</source>
        <translation>第 {label} 页</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Note</source>
        <translation>便签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Figure</source>
        <translation>图</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/actions.py" line="+125"/>
        <source>Follo&amp;w…</source>
        <translation>关注(&amp;W)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Follow an arXiv category or search, a journal&apos;s or blog&apos;s feed, a journal by ISSN or an author: their new papers wait in the Inbox</source>
        <translation>关注一个 arXiv 分类或检索、期刊或博客的订阅源、按 ISSN 指定的期刊或一位作者：它们的新论文会在收件箱里等你</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Chec&amp;k Followed Sources Now</source>
        <translation>立即检查关注的来源(&amp;K)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask each source you follow for new papers, into the Inbox</source>
        <translation>向你关注的每个来源询问新论文，放入收件箱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show &amp;Inbox</source>
        <translation>显示收件箱(&amp;I)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Show the new papers of the sources you follow, best first</source>
        <translation>显示你关注的来源的新论文，最相关的在前</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Add to Library</source>
        <translation>加入文库(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the selected inbox items to the library, unread</source>
        <translation>把选中的收件箱条目加入文库，标为未读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add &amp;Starred</source>
        <translation>加入并加星标(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Add the selected inbox items to the library, starred</source>
        <translation>把选中的收件箱条目加入文库，并加星标</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Dismiss</source>
        <translation>忽略(&amp;D)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Take the selected items out of the inbox for good (can be undone)</source>
        <translation>把选中的条目永久移出收件箱（可撤销）</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/main_window.py" line="-224"/>
        <source>&amp;Inbox</source>
        <translation>收件箱(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/feeds.py" line="+0"/>
        <source>Found</source>
        <translation>发现于</translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>%n papers in the inbox</source>
        <translation>
            <numerusform>收件箱中有 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>{items} · {n} selected</source>
        <translation>{items} · 已选 {n} 篇</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;p&gt;&lt;b&gt;Nothing new.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Follow sources with File › Follow…; their new papers come here, best first.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;没有新论文。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;用 文件 › 关注… 关注来源；它们的新论文会来到这里，最相关的在前。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;p&gt;&lt;b&gt;Nothing new.&lt;/b&gt;&lt;/p&gt;&lt;p&gt;New papers of the sources you follow come here when they are checked (Check Now).&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;没有新论文。&lt;/b&gt;&lt;/p&gt;&lt;p&gt;检查来源时（立即检查），你关注的来源的新论文会来到这里。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>&amp;Rank By</source>
        <translation>排序依据(&amp;R)</translation>
    </message>
    <message>
        <location line="+106"/>
        <source>{items}, ranked by the tag {tag}</source>
        <translation>{items}，按标签 {tag} 排序</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>A adds it to the library, S adds it starred, D dismisses it, Shift+K keeps it</source>
        <translation>A 将其加入文献库，S 加入并加星标，D 忽略，Shift+K 保留</translation>
    </message>
    <message>
        <location line="+94"/>
        <source>Check &amp;Now</source>
        <translation>立即检查(&amp;N)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Unfollow</source>
        <translation>取消关注(&amp;U)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Rename Source</source>
        <translation>重命名来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name of {source} in the sidebar (empty: its address):</source>
        <translation>{source} 在侧栏中的名称（留空：使用其地址）：</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>All My Papers</source>
        <translation>我的全部论文</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Rank the inbox by what you starred, read or tagged</source>
        <translation>按你加星标、读过或加了标签的论文为收件箱排序</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rank Inbox by This Tag</source>
        <translation>按此标签为收件箱排序</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Offline mode is on (Edit › Preferences): no source was checked</source>
        <translation>离线模式已开启（编辑 › 偏好设置）：未检查任何来源</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Stop checking the sources you follow</source>
        <translation>停止检查你关注的来源</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Checking the sources you follow…</source>
        <translation>正在检查你关注的来源…</translation>
    </message>
    <message numerus="yes">
        <location line="+11"/>
        <source>Checked %n sources</source>
        <translation>
            <numerusform>已检查 %n 个来源</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>{checked}: {new}</source>
        <translation>{checked}：{new}</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n new papers</source>
        <translation>
            <numerusform>%n 篇新论文</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{said}; {failed} failed (its note is on it in the sidebar)</source>
        <translation>{said}；{failed} 个失败（原因见侧栏中的该来源）</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Stopping after the source being asked…</source>
        <translation>问完当前来源后停止…</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/preferences.py" line="+9"/>
        <source>Followed Sources</source>
        <translation>关注的来源</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> hours</source>
        <translation> 小时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>only when asked</source>
        <translation>仅在要求时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How often the window asks the sources you follow for new papers (never in offline mode)</source>
        <translation>窗口多久向你关注的来源询问一次新论文（离线模式下从不）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check every:</source>
        <translation>检查间隔：</translation>
    </message>
    <message>
        <location filename="../../desktop/papershelf/gui/features/retractions.py" line="+117"/>
        <source>The check for retraction notices failed; it runs again tomorrow</source>
        <translation>撤稿通知检查失败；明天将再次检查</translation>
    </message>
</context>
<context>
    <name>AnnotationBox</name>
    <message>
        <location filename="../../desktop/papershelf/gui/annotation_box.py" line="+46"/>
        <location line="+4"/>
        <source>Annotations</source>
        <translation>批注</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Annotations ({count})</source>
        <translation>批注（{count}）</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>and %n more (the reader lists them all)</source>
        <translation>
            <numerusform>还有 %n 条（阅读器中列出全部）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <location filename="../../desktop/papershelf/gui/app.py" line="+298"/>
        <source>The backup was not restored</source>
        <translation>备份未能恢复</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Library Salvaged</source>
        <translation>文献库已抢救</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>What could be read is in {new}. The damaged library was kept as it is; open the salvaged one with papershelf --library {new}.</source>
        <translation>能读取的内容已保存在 {new}。损坏的文献库保持原样；请用 papershelf --library {new} 打开抢救出的文献库。</translation>
    </message>
    <message>
        <location line="-82"/>
        <location line="+87"/>
        <location line="+33"/>
        <source>Papershelf cannot open the library</source>
        <translation>Papershelf 无法打开文献库</translation>
    </message>
    <message>
        <location line="-119"/>
        <source>Papershelf is already running on {library} but does not answer; close that window (or end that process) and try again.</source>
        <translation>Papershelf 已在 {library} 上运行但没有响应；请关闭那个窗口（或结束该进程）后重试。</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Create a New Library?</source>
        <translation>新建文献库？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>There is no library at {path}. Create a new library there (with the sample papers)?</source>
        <translation>{path} 处没有文献库。要在那里新建一个文献库（含示例论文）吗？</translation>
    </message>
    <message>
        <location line="+202"/>
        <source>Papershelf</source>
        <translation>Papershelf</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Something went wrong, sorry. Your library is safe; the details were saved to {log}.</source>
        <translation>抱歉，出了点问题。您的文献库安然无恙；详细信息已保存到 {log}。</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../../desktop/papershelf/gui/detail.py" line="+119"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Provisional title, drawn from the abstract — edit it to set the real one</source>
        <translation>临时标题，取自摘要——编辑它以设置正式标题</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Citation key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>Details</source>
        <translation>详情</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>BibTeX</source>
        <translation>BibTeX</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Edit every field of the paper (E)</source>
        <translation>编辑论文的每个字段（E）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The paper&apos;s BibTeX entry, to edit as text</source>
        <translation>论文的 BibTeX 条目，可作为文本编辑</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Shared notes (everyone in the group)</source>
        <translation>共享笔记（组内所有人可见）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes everyone in the group reads (Markdown)…</source>
        <translation>组内所有人都能看到的笔记（Markdown）…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Private notes (only you)</source>
        <translation>私人笔记（仅自己可见）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notes only you see (Markdown)…</source>
        <translation>只有你能看到的笔记（Markdown）…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Your notes (Markdown)…</source>
        <translation>您的笔记（Markdown）…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No paper selected</source>
        <translation>未选择论文</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n papers selected</source>
        <translation>
            <numerusform>已选择 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Someone else changed these notes at the same time; both versions are kept, marked &lt;&lt;&lt;&lt;&lt;&lt;&lt; … &gt;&gt;&gt;&gt;&gt;&gt;&gt;</source>
        <translation>其他人同时修改了这些笔记；两个版本都已保留，并以 &lt;&lt;&lt;&lt;&lt;&lt;&lt; … &gt;&gt;&gt;&gt;&gt;&gt;&gt; 标出</translation>
    </message>
    <message>
        <location line="+162"/>
        <source>Click to edit the title</source>
        <translation>单击编辑标题</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No authors yet</source>
        <translation>尚无作者</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Starred</source>
        <translation>星标</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Tags: %s</source>
        <translation>标签：%s</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No tags</source>
        <translation>无标签</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No abstract</source>
        <translation>无摘要</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Retracted</source>
        <translation>已撤稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expression of concern</source>
        <translation>关注声明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Correction</source>
        <translation>更正</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reinstated</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the notice</source>
        <translation>声明</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>on {date}</source>
        <translation>于 {date}</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Reading</source>
        <translation>在读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read</source>
        <translation>已读</translation>
    </message>
</context>
<context>
    <name>FollowDialog</name>
    <message>
        <location filename="../../desktop/papershelf/gui/follow_dialog.py" line="+30"/>
        <source>Follow a Source</source>
        <translation>关注来源</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>New papers of the sources you follow wait in the Inbox, best first. Follow one of:</source>
        <translation>你关注的来源的新论文会在收件箱里等你，最相关的在前。可以关注：</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&lt;b&gt;arxiv:cs.LG&lt;/b&gt; — an arXiv category&lt;br&gt;&lt;b&gt;arxiv:&quot;sparse attention&quot;&lt;/b&gt; — an arXiv search&lt;br&gt;&lt;b&gt;https://…&lt;/b&gt; — any RSS or Atom feed (a journal, a blog)&lt;br&gt;&lt;b&gt;issn:1234-5678&lt;/b&gt; — a journal, through Crossref&lt;br&gt;&lt;b&gt;openalex:A5023888391&lt;/b&gt;, &lt;b&gt;s2author:1741101&lt;/b&gt;, &lt;b&gt;dblp:h/GeoffreyEHinton&lt;/b&gt; — an author, through OpenAlex, Semantic Scholar or DBLP&lt;br&gt;&lt;b&gt;openalex:&quot;graph neural&quot;&lt;/b&gt;, &lt;b&gt;crossref:&quot;graph neural&quot;&lt;/b&gt; — a search run at OpenAlex or Crossref</source>
        <translation>&lt;b&gt;arxiv:cs.LG&lt;/b&gt; — 一个 arXiv 分类&lt;br&gt;&lt;b&gt;arxiv:&quot;sparse attention&quot;&lt;/b&gt; — 一个 arXiv 检索&lt;br&gt;&lt;b&gt;https://…&lt;/b&gt; — 任意 RSS 或 Atom 订阅源（期刊、博客）&lt;br&gt;&lt;b&gt;issn:1234-5678&lt;/b&gt; — 一本期刊，通过 Crossref&lt;br&gt;&lt;b&gt;openalex:A5023888391&lt;/b&gt;、&lt;b&gt;s2author:1741101&lt;/b&gt;、&lt;b&gt;dblp:h/GeoffreyEHinton&lt;/b&gt; — 一位作者，通过 OpenAlex、Semantic Scholar 或 DBLP&lt;br&gt;&lt;b&gt;openalex:&quot;graph neural&quot;&lt;/b&gt;、&lt;b&gt;crossref:&quot;graph neural&quot;&lt;/b&gt; — 在 OpenAlex 或 Crossref 上运行的检索</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>&amp;Follow</source>
        <translation>关注(&amp;F)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>You follow {source} already</source>
        <translation>你已关注 {source}</translation>
    </message>
</context>
<context>
    <name>InboxItemView</name>
    <message>
        <location filename="../../desktop/papershelf/gui/inbox_view.py" line="+41"/>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Why here: {reason}</source>
        <translation>排在这里的原因：{reason}</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>From {source}</source>
        <translation>来自 {source}</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From a source no longer followed</source>
        <translation>来自一个已不再关注的来源</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Kept: stays in the inbox past the clean-up of old items</source>
        <translation>已保留：清理旧条目时仍留在收件箱中</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>(no abstract)</source>
        <translation>（无摘要）</translation>
    </message>
</context>
<context>
    <name>InboxSection</name>
    <message>
        <location filename="../../desktop/papershelf/gui/sidebar_inbox.py" line="+54"/>
        <source>Inbox</source>
        <translation>收件箱</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New papers from the sources you follow (File › Follow…), best first</source>
        <translation>你关注的来源（文件 › 关注…）的新论文，最相关的在前</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>{source}
The last check failed: {note}</source>
        <translation>{source}
上次检查失败：{note}</translation>
    </message>
</context>
<context>
    <name>PdfView</name>
    <message>
        <location filename="../../desktop/papershelf/gui/reader/view.py" line="+120"/>
        <source>Zoom In</source>
        <translation>放大</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zoom Out</source>
        <translation>缩小</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit Width</source>
        <translation>适合宽度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fit Page</source>
        <translation>适合页面</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Highlight</source>
        <translation>高亮</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go to Page…</source>
        <translation>转到页…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Dark Pages</source>
        <translation>深色页面</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show the pages light on dark</source>
        <translation>以深底浅字显示页面</translation>
    </message>
    <message>
        <location line="+251"/>
        <source>This page cannot be shown: it is damaged.</source>
        <translation>此页已损坏，无法显示。</translation>
    </message>
    <message>
        <location line="+111"/>
        <source>Go to Page</source>
        <translation>转到页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Page (its label, or its number from 1 to {count}):</source>
        <translation>页（页码标签，或 1 到 {count} 的序号）：</translation>
    </message>
</context>
<context>
    <name>ReaderTab</name>
    <message>
        <location filename="../../desktop/papershelf/gui/reader/tab.py" line="+113"/>
        <location line="+20"/>
        <source>Annotations</source>
        <translation>批注</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Find in the document</source>
        <translation>在文档中查找</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Contents</source>
        <translation>目录</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Find…</source>
        <translation>查找…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Find Next</source>
        <translation>查找下一个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Find Previous</source>
        <translation>查找上一个</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+7"/>
        <location line="+335"/>
        <source>Remove Annotation</source>
        <translation>删除批注</translation>
    </message>
    <message>
        <location line="-331"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Add Annotations to Notes</source>
        <translation>将批注添加到笔记</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Find:</source>
        <translation>查找：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>{file} is encrypted. Its password:</source>
        <translation>{file} 已加密。请输入密码：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>That password is wrong.</source>
        <translation>密码不正确。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Encrypted PDF</source>
        <translation>加密的 PDF</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>{file} is encrypted and was not opened</source>
        <translation>{file} 已加密，未打开</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This PDF cannot be shown: {problem}</source>
        <translation>无法显示此 PDF：{problem}</translation>
    </message>
    <message>
        <location line="+44"/>
        <source>Page {label} ({n} of {count})</source>
        <translation>第 {label} 页（第 {n} 页，共 {count} 页）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>{percent}%</source>
        <translation>{percent}%</translation>
    </message>
    <message>
        <location line="+119"/>
        <source>Note</source>
        <translation>便签</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>{n} of {count}</source>
        <translation>第 {n} 个，共 {count} 个</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Your note on page {label}:</source>
        <translation>第 {label} 页的便签：</translation>
    </message>
    <message>
        <location line="+85"/>
        <source>Edit Comment…</source>
        <translation>编辑评论…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Yellow</source>
        <translation>黄色</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Red</source>
        <translation>红色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Green</source>
        <translation>绿色</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Blue</source>
        <translation>蓝色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Purple</source>
        <translation>紫色</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Comment</source>
        <translation>评论</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Your comment on the annotation:</source>
        <translation>你对此批注的评论：</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop/papershelf/gui/sidebar.py" line="+126"/>
        <source>All</source>
        <translation>全部</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading</source>
        <translation>在读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read</source>
        <translation>已读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Starred</source>
        <translation>星标</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Saved Searches</source>
        <translation>已保存的搜索</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Recently read</source>
        <translation>最近阅读</translation>
    </message>
</context>
</TS>
