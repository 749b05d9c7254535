<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- Messages the core makes (papershelf.core.messages: undo steps, ...), kept by hand:
     lupdate does not read the core. Context "Core"; %n is a count. -->
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Core</name>
    <message numerus="yes">
        <source>Save %n papers from the browser</source>
        <translation>
            <numerusform>从浏览器保存 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tag %n papers from the browser</source>
        <translation>
            <numerusform>为浏览器保存的 %n 篇论文加标签</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n papers not undone: changed since by another program</source>
        <translation>
            <numerusform>%n 篇论文未撤销：此后已被其他程序更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n papers not redone: changed since by another program</source>
        <translation>
            <numerusform>%n 篇论文未重做：此后已被其他程序更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Star %n papers</source>
        <translation>
            <numerusform>星标 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unstar %n papers</source>
        <translation>
            <numerusform>取消星标 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark unread: %n papers</source>
        <translation>
            <numerusform>标为未读：%n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark reading: %n papers</source>
        <translation>
            <numerusform>标为在读：%n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Mark read: %n papers</source>
        <translation>
            <numerusform>标为已读：%n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Delete %n papers</source>
        <translation>
            <numerusform>删除 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Restore %n papers</source>
        <translation>
            <numerusform>恢复 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Import %n papers</source>
        <translation>
            <numerusform>导入 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Complete %n papers</source>
        <translation>
            <numerusform>补全 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Add %n papers</source>
        <translation>
            <numerusform>添加 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Download PDF for %n papers</source>
        <translation>
            <numerusform>为 %n 篇论文下载 PDF</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Regenerate keys of %n papers</source>
        <translation>
            <numerusform>重新生成 %n 篇论文的引用键</numerusform>
        </translation>
    </message>
    <message>
        <source>Cycle read state</source>
        <translation>切换阅读状态</translation>
    </message>
    <message>
        <source>New paper</source>
        <translation>新建论文</translation>
    </message>
    <message>
        <source>Edit notes</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <source>Edit private notes</source>
        <translation>编辑私人笔记</translation>
    </message>
    <message>
        <source>Edit title</source>
        <translation>编辑标题</translation>
    </message>
    <message>
        <source>Edit {fields}</source>
        <translation>编辑{fields}</translation>
    </message>
    <message>
        <source>Change citation key</source>
        <translation>更改引用键</translation>
    </message>
    <message>
        <source>Tag {tags}</source>
        <translation>添加标签 {tags}</translation>
    </message>
    <message>
        <source>Remove tag {tags}</source>
        <translation>移除标签 {tags}</translation>
    </message>
    <message>
        <source>Restore merged papers</source>
        <translation>恢复合并的论文</translation>
    </message>
    <message>
        <source>Merge {other} into {keep}</source>
        <translation>将 {other} 合并到 {keep}</translation>
    </message>
    <message>
        <source>Attach {name}</source>
        <translation>附加 {name}</translation>
    </message>
    <message>
        <source>{first}, {then}</source>
        <translation>{first},{then}</translation>
    </message>
    <message>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <source>Add papers</source>
        <translation>添加论文</translation>
    </message>
    <message>
        <source>a list of {lines} short lines, not a prose paragraph</source>
        <translation>由 {lines} 行短句组成的列表，不是成段的文字</translation>
    </message>
    <message>
        <source>cannot read the file: {reason}</source>
        <translation>无法读取文件：{reason}</translation>
    </message>
    <message>
        <source>looks like comma-separated table rows, not prose</source>
        <translation>看起来是逗号分隔的表格行，不是成段的文字</translation>
    </message>
    <message>
        <source>looks like tab-separated table rows, not prose</source>
        <translation>看起来是制表符分隔的表格行，不是成段的文字</translation>
    </message>
    <message>
        <source>mostly digits and symbols, not prose</source>
        <translation>大部分是数字和符号，不是成段的文字</translation>
    </message>
    <message>
        <source>not imported: the file has no heading naming a venue and year (like 'ICML 2024 papers') and its paragraphs do not read as abstracts ({bad} of the first {judged}, from line {line}, are not sentences); add such a heading as the first line to import it anyway</source>
        <translation>未导入：文件没有注明会议和年份的标题行（如“ICML 2024 论文列表”），其段落读起来也不像摘要（前 {judged} 段中有 {bad} 段不成句，从第 {line} 行起）；若仍要导入，请在第一行加上这样的标题</translation>
    </message>
    <message>
        <source>skipped paragraph: {reason}</source>
        <translation>已跳过该段：{reason}</translation>
    </message>
    <message>
        <source>the file has a heading ({heading}) but no abstracts</source>
        <translation>文件有标题行（{heading}），但没有摘要</translation>
    </message>
    <message>
        <source>the file is empty: expected a heading and abstracts</source>
        <translation>文件是空的：应有一行标题和若干摘要</translation>
    </message>
    <message>
        <source>the file is not UTF-8 text: byte {byte} at offset {offset} (line {line}) cannot be decoded; save the file as UTF-8 and import it again</source>
        <translation>文件不是 UTF-8 文本：偏移 {offset} 处（第 {line} 行）的字节 {byte} 无法解码；请将文件另存为 UTF-8 后重新导入</translation>
    </message>
    <message>
        <source>this does not look like a list of abstracts: {bad} of {all} paragraphs are not abstract-like prose (line {line}: {reason})</source>
        <translation>这看起来不是摘要列表：{all} 段中有 {bad} 段不像摘要（第 {line} 行：{reason}）</translation>
    </message>
    <message>
        <source>this is a BibTeX file (it starts with an @entry), not a list of abstracts</source>
        <translation>这是 BibTeX 文件（以 @ 条目开头），不是摘要列表</translation>
    </message>
    <message>
        <source>this is a binary file (it contains NUL bytes), not a text list of abstracts</source>
        <translation>这是二进制文件（含有 NUL 字节），不是文本形式的摘要列表</translation>
    </message>
    <message>
        <source>this looks like JSON data, not a list of abstracts</source>
        <translation>这看起来是 JSON 数据，不是摘要列表</translation>
    </message>
    <message>
        <source>this looks like XML/HTML, not a list of abstracts</source>
        <translation>这看起来是 XML/HTML，不是摘要列表</translation>
    </message>
    <message>
        <source>this looks like a binary file (many control characters)</source>
        <translation>这看起来是二进制文件（控制字符很多）</translation>
    </message>
    <message>
        <source>nothing to import (no data)</source>
        <translation>没有可导入的内容（没有数据）</translation>
    </message>
    <message>
        <source>a Zotero database cannot be read from here; name its file (zotero.sqlite)</source>
        <translation>无法从这里读取 Zotero 数据库；请指定它的文件（zotero.sqlite）</translation>
    </message>
    <message>
        <source>too short for an abstract ({chars} characters, {words} words)</source>
        <translation>作为摘要太短（{chars} 个字符，{words} 个词）</translation>
    </message>
    <message>
        <source>{path}: heading {heading} does not name a venue and year; left empty</source>
        <translation>{path}：标题行 {heading} 没有注明会议和年份；这两项留空</translation>
    </message>
    <message>
        <source>{path}: no heading line (like 'ICML 2024 papers'); venue and year left empty</source>
        <translation>{path}：没有标题行（如“ICML 2024 论文列表”）；会议和年份留空</translation>
    </message>
    <message>
        <source>Crossref does not know DOI {doi}; OpenAlex's record is used</source>
        <translation>Crossref 没有 DOI {doi} 的记录；改用 OpenAlex 的记录</translation>
    </message>
    <message>
        <source>Title search</source>
        <translation>按标题查找</translation>
    </message>
    <message>
        <source>answer too big (over {size})</source>
        <translation>回复过大（超过 {size}）</translation>
    </message>
    <message>
        <source>could not be reached (offline, or the server is down?)</source>
        <translation>无法连接（是否离线，或服务器已停止？）</translation>
    </message>
    <message>
        <source>no service could be reached ({errors})</source>
        <translation>无法连接任何服务（{errors}）</translation>
    </message>
    <message>
        <source>not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <source>not found ({what})</source>
        <translation>未找到（{what}）</translation>
    </message>
    <message>
        <source>nothing found titled “{title}”</source>
        <translation>没有找到标题为“{title}”的论文</translation>
    </message>
    <message>
        <source>offline mode is on; no request was made</source>
        <translation>已开启离线模式；未发出请求</translation>
    </message>
    <message>
        <source>rate limited (HTTP 429)</source>
        <translation>请求过于频繁，被限流（HTTP 429）</translation>
    </message>
    <message>
        <source>redirected to an address that is not http(s)</source>
        <translation>被重定向到非 http(s) 地址</translation>
    </message>
    <message>
        <source>refused the API key (HTTP {status}); check {variable}</source>
        <translation>拒绝了 API 密钥（HTTP {status}）；请检查 {variable}</translation>
    </message>
    <message>
        <source>refused the request (HTTP {status})</source>
        <translation>拒绝了请求（HTTP {status}）</translation>
    </message>
    <message>
        <source>server error (HTTP {status})</source>
        <translation>服务器错误（HTTP {status}）</translation>
    </message>
    <message>
        <source>skipped: no API key (set {variable} or store one in the keyring as '{keyring}'/'{name}')</source>
        <translation>已跳过：没有 API 密钥（请设置 {variable}，或在系统密钥环中以 '{keyring}'/'{name}' 保存一个）</translation>
    </message>
    <message>
        <source>the connection broke off (a network problem?)</source>
        <translation>连接中断（网络问题？）</translation>
    </message>
    <message>
        <source>the download broke off (a network problem?)</source>
        <translation>下载中断（网络问题？）</translation>
    </message>
    <message>
        <source>timed out (no answer within {seconds} s)</source>
        <translation>超时（{seconds} 秒内没有回复）</translation>
    </message>
    <message>
        <source>timed out while downloading</source>
        <translation>下载超时</translation>
    </message>
    <message>
        <source>{identifier}: {error}</source>
        <translation>{identifier}：{error}</translation>
    </message>
    <message>
        <source>{problem}; asked to wait {seconds} s, try again later</source>
        <translation>{problem}；服务要求等待 {seconds} 秒，请稍后再试</translation>
    </message>
    <message>
        <source>{service}: {problem}</source>
        <translation>{service}：{problem}</translation>
    </message>
    <message>
        <source>{first}; {then}</source>
        <translation>{first}；{then}</translation>
    </message>
    <message>
        <source>Connection refused</source>
        <translation>连接被拒绝</translation>
    </message>
    <message>
        <source>Connection timed out</source>
        <translation>连接超时</translation>
    </message>
    <message>
        <source>Name or service not known</source>
        <translation>未知的主机名或服务</translation>
    </message>
    <message>
        <source>Network is unreachable</source>
        <translation>网络不可达</translation>
    </message>
    <message>
        <source>No route to host</source>
        <translation>没有到主机的路由</translation>
    </message>
    <message>
        <source>No such file or directory</source>
        <translation>没有那个文件或目录</translation>
    </message>
    <message>
        <source>Temporary failure in name resolution</source>
        <translation>域名解析暂时失败</translation>
    </message>
    <message>
        <source>at {host}:{port}</source>
        <translation>（{host}:{port}）</translation>
    </message>
    <message>
        <source>is it running?</source>
        <translation>它是否在运行？</translation>
    </message>
    <message>
        <source>is its name right?</source>
        <translation>名称是否正确？</translation>
    </message>
    <message>
        <source>no details</source>
        <translation>没有详细信息</translation>
    </message>
    <message>
        <source>on socket {path}</source>
        <translation>（套接字 {path}）</translation>
    </message>
    <message>
        <source>{where}: cannot connect to the PostgreSQL server {server}: {reason} (is it a PostgreSQL server, and the port right?)</source>
        <translation>{where}：无法连接 PostgreSQL 服务器{server}：{reason}（它是 PostgreSQL 服务器吗？端口对吗？）</translation>
    </message>
    <message>
        <source>{where}: cannot open the library file ({detail})</source>
        <translation>{where}：无法打开文献库文件（{detail}）</translation>
    </message>
    <message>
        <source>{where}: cannot reach the PostgreSQL server {server}: {reason} ({question})</source>
        <translation>{where}：无法连接 PostgreSQL 服务器{server}：{reason}（{question}）</translation>
    </message>
    <message>
        <source>{where}: database error ({detail})</source>
        <translation>{where}：数据库错误（{detail}）</translation>
    </message>
    <message>
        <source>{where}: the connection to the server {server} was lost; nothing was changed</source>
        <translation>{where}：与服务器{server}的连接已断开；没有做任何更改</translation>
    </message>
    <message>
        <source>{where}: the database {database} does not exist on the server {server}; create it first (createdb)</source>
        <translation>{where}：服务器{server}上没有数据库 {database}；请先创建它（createdb）</translation>
    </message>
    <message>
        <source>{where}: the disk is full; nothing was changed</source>
        <translation>{where}：磁盘已满；没有做任何更改</translation>
    </message>
    <message>
        <source>{where}: the file is not a Papershelf library or is damaged ({detail})</source>
        <translation>{where}：该文件不是 Papershelf 文献库，或已损坏（{detail}）</translation>
    </message>
    <message>
        <source>{where}: the library cannot be written (read-only file or folder)</source>
        <translation>{where}：文献库无法写入（文件或文件夹是只读的）</translation>
    </message>
    <message>
        <source>{where}: the library is busy (another program is writing to it); try again</source>
        <translation>{where}：文献库正忙（另一个程序正在写入）；请重试</translation>
    </message>
    <message>
        <source>{where}: the library is busy (another user is changing the same papers); nothing was changed, try again</source>
        <translation>{where}：文献库正忙（另一位用户正在修改相同的论文）；没有做任何更改，请重试</translation>
    </message>
    <message>
        <source>{where}: the role {user} may not do this on the server {server}: {reason}</source>
        <translation>{where}：角色 {user} 无权在服务器{server}上执行此操作：{reason}</translation>
    </message>
    <message>
        <source>{where}: the server {server} asks for the password of {user} and none was given (put it in ~/.pgpass or PGPASSWORD)</source>
        <translation>{where}：服务器{server}要求提供 {user} 的密码，但没有给出（请写入 ~/.pgpass 或 PGPASSWORD）</translation>
    </message>
    <message>
        <source>{where}: the server {server} has no connection to spare; try again later</source>
        <translation>{where}：服务器{server}没有空闲的连接；请稍后再试</translation>
    </message>
    <message>
        <source>{where}: the server {server} has no user {user}</source>
        <translation>{where}：服务器{server}上没有用户 {user}</translation>
    </message>
    <message>
        <source>{where}: the server {server} is out of disk or memory; nothing was changed</source>
        <translation>{where}：服务器{server}的磁盘或内存不足；没有做任何更改</translation>
    </message>
    <message>
        <source>{where}: the server {server} only allows reading (a standby?); nothing was changed</source>
        <translation>{where}：服务器{server}只允许读取（是备用服务器？）；没有做任何更改</translation>
    </message>
    <message>
        <source>{where}: the server {server} refused the login of {user}: wrong password (or no such user)</source>
        <translation>{where}：服务器{server}拒绝了 {user} 的登录：密码错误（或没有这个用户）</translation>
    </message>
    <message>
        <source> (line {line})</source>
        <translation>（第 {line} 行）</translation>
    </message>
    <message>
        <source> (the next entry starts on line {line})</source>
        <translation>（下一个条目从第 {line} 行开始）</translation>
    </message>
    <message>
        <source>@{type} without a key; skipped</source>
        <translation>@{type} 没有引用键；已跳过</translation>
    </message>
    <message>
        <source>a NUL byte</source>
        <translation>一个 NUL 字节</translation>
    </message>
    <message>
        <source>a stray comma (empty part)</source>
        <translation>多余的逗号（有空的部分）</translation>
    </message>
    <message>
        <source>cannot be read (permission denied)</source>
        <translation>无法读取（没有权限）</translation>
    </message>
    <message>
        <source>cannot read file: {reason}</source>
        <translation>无法读取文件：{reason}</translation>
    </message>
    <message>
        <source>citation key {wanted} was already in use; the new paper is {key}</source>
        <translation>引用键 {wanted} 已被使用；新论文的引用键为 {key}</translation>
    </message>
    <message>
        <source>duplicate entry key '{key}' (first on line {first}); skipped</source>
        <translation>重复的条目引用键 '{key}'（第一次出现在第 {first} 行）；已跳过</translation>
    </message>
    <message>
        <source>entry '{key}'</source>
        <translation>条目 '{key}'</translation>
    </message>
    <message>
        <source>entry '{key}': bare {chars} in {fields} would break LaTeX; exported escaped</source>
        <translation>条目 '{key}'：{fields} 中未转义的 {chars} 会使 LaTeX 出错；导出时已转义</translation>
    </message>
    <message>
        <source>entry '{key}': crossref '{target}' is not in this file; the field is kept and exported as it is (for the file that holds that entry)</source>
        <translation>条目 '{key}'：crossref '{target}' 不在此文件中；该字段原样保留并导出（供含有那个条目的文件使用）</translation>
    </message>
    <message>
        <source>entry '{key}': missing ',' after field '{field}'; read as if it were there (field '{next}' follows)</source>
        <translation>条目 '{key}'：字段 '{field}' 后缺少 ','；已按有逗号读取（后面是字段 '{next}'）</translation>
    </message>
    <message>
        <source>entry '{key}': the line {line} inside the entry is read as a comment (biber's reading; bibtex stops on it) and is not exported</source>
        <translation>条目 '{key}'：条目中的行 {line} 被当作注释读取（与 biber 一致；bibtex 会在此处停止），不会导出</translation>
    </message>
    <message>
        <source>entry '{key}': {field} name {person} has {why}; bibtex stops on it, so it is exported as {fixed}</source>
        <translation>条目 '{key}'：{field} 中的姓名 {person} 有{why}；bibtex 会在此处停止，因此导出为 {fixed}</translation>
    </message>
    <message>
        <source>expected ',' after the key {key}, found {found}</source>
        <translation>引用键 {key} 后应为 ','，实际为 {found}</translation>
    </message>
    <message>
        <source>expected ',' or '{close}' after the value of field '{field}', found {found}</source>
        <translation>字段 '{field}' 的值后应为 ',' 或 '{close}'，实际为 {found}</translation>
    </message>
    <message>
        <source>expected '=' after @string name {name}</source>
        <translation>@string 名称 {name} 后应为 '='</translation>
    </message>
    <message>
        <source>expected '=' after the field name {name}</source>
        <translation>字段名 {name} 后应为 '='</translation>
    </message>
    <message>
        <source>expected '{close}' to close {what}</source>
        <translation>应有 '{close}' 来结束 {what}</translation>
    </message>
    <message>
        <source>expected a field name or '{close}', found {found}</source>
        <translation>应为字段名或 '{close}'，实际为 {found}</translation>
    </message>
    <message>
        <source>expected a macro name after @string</source>
        <translation>@string 后应为宏名称</translation>
    </message>
    <message>
        <source>expected a value for {what}, found {found}</source>
        <translation>{what} 应有一个值，实际为 {found}</translation>
    </message>
    <message>
        <source>field '{field}' of entry '{key}'</source>
        <translation>条目 '{key}' 的字段 '{field}'</translation>
    </message>
    <message>
        <source>is a folder, not a file</source>
        <translation>是文件夹，不是文件</translation>
    </message>
    <message>
        <source>neither UTF-8 nor a single-byte encoding</source>
        <translation>既不是 UTF-8，也不是单字节编码</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>not a BibTeX file (no @entry found)</source>
        <translation>不是 BibTeX 文件（没有找到 @ 条目）</translation>
    </message>
    <message>
        <source>not a text file (binary data: {what})</source>
        <translation>不是文本文件（二进制数据：{what}）</translation>
    </message>
    <message>
        <source>not valid UTF-16 ({reason})</source>
        <translation>不是有效的 UTF-16（{reason}）</translation>
    </message>
    <message>
        <source>text outside any entry looks like a field ({snippet}); an extra '}}' may have ended the entry before it. The text is ignored, as bibtex does</source>
        <translation>条目之外的文字看起来像一个字段（{snippet}）；可能是多余的 '}}' 提前结束了前一个条目。这段文字被忽略，与 bibtex 一致</translation>
    </message>
    <message>
        <source>the '"' opening {what} is never closed</source>
        <translation>{what} 开头的 '"' 没有闭合</translation>
    </message>
    <message>
        <source>the '{{' opening {what} is never closed{hint}</source>
        <translation>{what} 开头的 '{{' 没有闭合{hint}</translation>
    </message>
    <message>
        <source>the end of the file</source>
        <translation>文件末尾</translation>
    </message>
    <message>
        <source>the entry is not closed before the end of the file</source>
        <translation>条目到文件末尾都没有结束</translation>
    </message>
    <message>
        <source>the entry is not closed before the next entry (line {line})</source>
        <translation>条目在下一个条目（第 {line} 行）之前没有结束</translation>
    </message>
    <message>
        <source>this paragraph</source>
        <translation>这一段</translation>
    </message>
    <message>
        <source>too many commas</source>
        <translation>过多的逗号</translation>
    </message>
    <message>
        <source>unbalanced '}}' in the quoted {what}</source>
        <translation>带引号的 {what} 中有不配对的 '}}'</translation>
    </message>
    <message>
        <source>unreadable @{type}: {reason}{at}</source>
        <translation>无法读取的 @{type}：{reason}{at}</translation>
    </message>
    <message>
        <source>{n} control characters</source>
        <translation>{n} 个控制字符</translation>
    </message>
    <message numerus="yes">
        <source>{path}: %n @proceedings entries not imported as papers: {keys}</source>
        <translation>
            <numerusform>{path}：%n 个 @proceedings 条目没有作为论文导入：{keys}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{path}: %n entries completed from their crossref parent</source>
        <translation>
            <numerusform>{path}：%n 个条目已从其 crossref 父条目补全</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{path}: filled {fields} of %n entries from @{type} {key}</source>
        <translation>
            <numerusform>{path}：已从 @{type} {key} 为 %n 个条目填入 {fields}</numerusform>
        </translation>
    </message>
    <message>
        <source>{path}: no byte order mark; read as {encoding}</source>
        <translation>{path}：没有字节顺序标记；按 {encoding} 读取</translation>
    </message>
    <message>
        <source>{path}: no entries found</source>
        <translation>{path}：没有找到条目</translation>
    </message>
    <message>
        <source>{path}: not UTF-8 (first non-UTF-8 byte on line {line}); read as {encoding}</source>
        <translation>{path}：不是 UTF-8（第一个非 UTF-8 字节在第 {line} 行）；按 {encoding} 读取</translation>
    </message>
    <message>
        <source>{path}: {n} @preamble block(s) kept out of the papers; kept with the entries that use them and exported with them</source>
        <translation>{path}：{n} 个 @preamble 块不属于论文；随使用它们的条目保存并一起导出</translation>
    </message>
    <message>
        <source>{what} holds text that looks like an entry (a line starting with '@'); it is read as part of the value, as bibtex reads it</source>
        <translation>{what} 中有看起来像条目的文字（以 '@' 开头的行）；与 bibtex 一样，它被当作值的一部分读取</translation>
    </message>
    <message numerus="yes">
        <source>{where}: %n control characters {chars} dropped (not text; LaTeX would stop on it)</source>
        <translation>
            <numerusform>{where}：已删除 %n 个控制字符 {chars}（它们不是文字；LaTeX 会在此处停止）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{path}: control characters dropped on %n more lines</source>
        <translation>
            <numerusform>{path}：另有 %n 行的控制字符已删除</numerusform>
        </translation>
    </message>
    <message>
        <source>{where}: entry '{key}': field '{field}' given twice; the first value is kept</source>
        <translation>{where}：条目 '{key}'：字段 '{field}' 出现了两次；保留第一个值</translation>
    </message>
    <message>
        <source>{where}: the key {old} cannot be a citation key ({why}); the paper's key is {key}, and {old} is kept as an alias</source>
        <translation>{where}：{old} 不能作为引用键（{why}）；论文的引用键为 {key}，{old} 保留为别名</translation>
    </message>
    <message>
        <source>{where}: {entry} completed '{key}' with {fields}</source>
        <translation>{where}：{entry} 为 '{key}' 补全了 {fields}</translation>
    </message>
    <message>
        <source>{where}: entry '{key}' was added although it looks like '{other}' ({same}): their citation keys differ and no DOI or arXiv id says they are one paper; Find Duplicates lists the pair</source>
        <translation>{where}：条目 '{key}' 已添加，尽管它看起来与 '{other}' 相同（{same}）：二者的引用键不同，且没有 DOI 或 arXiv 编号表明它们是同一篇论文；“查找重复”会列出这一对</translation>
    </message>
    <message>
        <source>the same title</source>
        <translation>标题相同</translation>
    </message>
    <message>
        <source>the same abstract</source>
        <translation>摘要相同</translation>
    </message>
    <message>
        <source>{where}: {text} is commented out with '%' (as biber reads it); not imported</source>
        <translation>{where}：{text} 已用 '%' 注释掉（与 biber 一致）；未导入</translation>
    </message>
    <message>
        <source>{where}: {what}: macro {name} is not defined in this file; shown as its name and exported as the macro it is</source>
        <translation>{where}：{what}：宏 {name} 没有在此文件中定义；显示为其名称，导出时仍为宏</translation>
    </message>
    <message>
        <source>{where}: {problem}</source>
        <translation>{where}：{problem}</translation>
    </message>
    <message>
        <source>TY line without a type</source>
        <translation>TY 行没有类型</translation>
    </message>
    <message>
        <source>item has no title, author, DOI or URL</source>
        <translation>条目没有标题、作者、DOI 或 URL</translation>
    </message>
    <message>
        <source>item is not an object</source>
        <translation>条目不是一个对象</translation>
    </message>
    <message>
        <source>lines outside a record (no TY line before them)</source>
        <translation>记录之外的行（前面没有 TY 行）</translation>
    </message>
    <message>
        <source>no RIS records (no TY line)</source>
        <translation>没有 RIS 记录（没有 TY 行）</translation>
    </message>
    <message>
        <source>not CSL-JSON: expected a list of items</source>
        <translation>不是 CSL-JSON：应为条目列表</translation>
    </message>
    <message>
        <source>not UTF-8 text (byte {offset})</source>
        <translation>不是 UTF-8 文本（第 {offset} 字节）</translation>
    </message>
    <message>
        <source>{path}: values over {limit} characters cut short: {count} (first: Zotero item {key}&apos;s {field})</source>
        <translation>{path}：超过 {limit} 个字符的值已截短：{count} 个（第一个：Zotero 条目 {key} 的 {field}）</translation>
    </message>
    <message>
        <source>holds more text than a database of its size can: over {limit} characters (values repeated across items); nothing imported</source>
        <translation>所含文本超出同等大小的数据库所能容纳：超过 {limit} 个字符（多个条目重复使用同一值）；未导入任何内容</translation>
    </message>
    <message>
        <source>{table} is a virtual table</source>
        <translation>{table} 是虚拟表</translation>
    </message>
    <message>
        <source>{table}.{column} is a generated column</source>
        <translation>{table}.{column} 是生成列</translation>
    </message>
    <message>
        <source>not a Zotero database as Zotero writes it ({what}); nothing imported</source>
        <translation>不是 Zotero 所写的 Zotero 数据库（{what}）；未导入任何内容</translation>
    </message>
    <message>
        <source>JSON nested more than {depth} levels deep</source>
        <translation>JSON 嵌套超过 {depth} 层</translation>
    </message>
    <message>
        <source>not valid JSON: {reason} (column {column})</source>
        <translation>不是有效的 JSON：{reason}（第 {column} 列）</translation>
    </message>
    <message>
        <source>record has no ER line (the file ends first)</source>
        <translation>记录没有 ER 行（文件先结束了）</translation>
    </message>
    <message>
        <source>record has no ER line before the next TY</source>
        <translation>下一个 TY 之前记录没有 ER 行</translation>
    </message>
    <message>
        <source>record has no title, author, DOI or URL</source>
        <translation>记录没有标题、作者、DOI 或 URL</translation>
    </message>
    <message>
        <source>record without a TY line</source>
        <translation>记录没有 TY 行</translation>
    </message>
    <message>
        <source>{path}: CSL-JSON keys not kept: {keys}</source>
        <translation>{path}：未保留的 CSL-JSON 键：{keys}</translation>
    </message>
    <message>
        <source>{path}: RIS tags not kept: {tags}</source>
        <translation>{path}：未保留的 RIS 标签：{tags}</translation>
    </message>
    <message>
        <source>Save search {name}</source>
        <translation>保存搜索 {name}</translation>
    </message>
    <message>
        <source>Rename saved search {name}</source>
        <translation>重命名已保存的搜索为 {name}</translation>
    </message>
    <message>
        <source>Edit saved search</source>
        <translation>编辑已保存的搜索</translation>
    </message>
    <message>
        <source>Move saved search</source>
        <translation>移动已保存的搜索</translation>
    </message>
    <message>
        <source>Delete saved search</source>
        <translation>删除已保存的搜索</translation>
    </message>
    <message>
        <source>the saved search no longer exists</source>
        <translation>该已保存的搜索已不存在</translation>
    </message>
    <message>
        <source>the saved search &apos;{name}&apos; is {owner}&apos;s: only they can change it</source>
        <translation>已保存的搜索“{name}”属于 {owner}：只有其本人可以更改</translation>
    </message>
    <message>
        <source>there is already a saved search named '{name}'</source>
        <translation>已有名为“{name}”的已保存搜索</translation>
    </message>
    <message>
        <source>a saved search needs a name</source>
        <translation>已保存的搜索需要一个名称</translation>
    </message>
    <message>
        <source>a saved search's name has at most {longest} characters</source>
        <translation>已保存搜索的名称最多 {longest} 个字符</translation>
    </message>
    <message>
        <source>a saved search needs a query (words, or fields such as tag:reading)</source>
        <translation>已保存的搜索需要一个查询（词语，或 tag:reading 这样的字段）</translation>
    </message>
    <message>
        <source>({term})</source>
        <translation>（{term}）</translation>
    </message>
    <message>
        <source>DOI</source>
        <translation>DOI</translation>
    </message>
    <message>
        <source>PDF text</source>
        <translation>PDF 文本</translation>
    </message>
    <message>
        <source>abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <source>added</source>
        <translation>添加时间</translation>
    </message>
    <message>
        <source>at any time</source>
        <translation>任何时间</translation>
    </message>
    <message>
        <source>author</source>
        <translation>作者</translation>
    </message>
    <message>
        <source>before {when}</source>
        <translation>{when} 之前</translation>
    </message>
    <message>
        <source>being read</source>
        <translation>在读</translation>
    </message>
    <message>
        <source>everything</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>from {first} to before {last}</source>
        <translation>从 {first} 到 {last} 之前</translation>
    </message>
    <message>
        <source>from {first} to {last}</source>
        <translation>从 {first} 到 {last}</translation>
    </message>
    <message>
        <source>in {period}</source>
        <translation>在 {period}</translation>
    </message>
    <message>
        <source>key</source>
        <translation>引用键</translation>
    </message>
    <message>
        <source>not {term}</source>
        <translation>不含 {term}</translation>
    </message>
    <message>
        <source>notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <source>on {day}</source>
        <translation>在 {day}</translation>
    </message>
    <message>
        <source>provisional</source>
        <translation>临时标题</translation>
    </message>
    <message>
        <source>read</source>
        <translation>已读</translation>
    </message>
    <message>
        <source>since {when}</source>
        <translation>自 {when} 起</translation>
    </message>
    <message>
        <source>starred</source>
        <translation>已加星标</translation>
    </message>
    <message>
        <source>tag</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <source>type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <source>venue</source>
        <translation>出处</translation>
    </message>
    <message>
        <source>with a DOI</source>
        <translation>有 DOI</translation>
    </message>
    <message>
        <source>with a PDF</source>
        <translation>有 PDF</translation>
    </message>
    <message>
        <source>with an abstract</source>
        <translation>有摘要</translation>
    </message>
    <message>
        <source>with notes</source>
        <translation>有笔记</translation>
    </message>
    <message>
        <source>year</source>
        <translation>年份</translation>
    </message>
    <message>
        <source>{field} {what}</source>
        <translation>{field}：{what}</translation>
    </message>
    <message>
        <source>{year} or earlier</source>
        <translation>{year} 年或更早</translation>
    </message>
    <message>
        <source>{year} or later</source>
        <translation>{year} 年或更晚</translation>
    </message>
    <message>
        <source>{first} and {then}</source>
        <translation>{first} 且 {then}</translation>
    </message>
    <message>
        <source>{first} or {then}</source>
        <translation>{first} 或 {then}</translation>
    </message>
    <message>
        <source>Annotations</source>
        <translation>批注</translation>
    </message>
    <message>
        <source>Zotero item {key} ({title}) {why}</source>
        <translation>Zotero 条目 {key}（{title}）{why}</translation>
    </message>
    <message>
        <source>an SQLite database, but not Zotero&apos;s (it lacks the tables {tables})</source>
        <translation>是 SQLite 数据库，但不是 Zotero 的（缺少表 {tables}）</translation>
    </message>
    <message>
        <source>cannot read this Zotero database ({reason}); if Zotero is writing to it, try again in a moment</source>
        <translation>无法读取此 Zotero 数据库（{reason}）；如果 Zotero 正在写入，请稍后再试</translation>
    </message>
    <message>
        <source>could not be converted ({reason})</source>
        <translation>无法转换（{reason}）</translation>
    </message>
    <message>
        <source>files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>has no title, creator, DOI or URL</source>
        <translation>没有标题、创建者、DOI 或 URL</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>无标题</translation>
    </message>
    <message>
        <source>{path}: annotations without text (images, ink), not imported: {count}</source>
        <translation>{path}：没有文字的批注（图像、墨迹）未导入：{count} 条</translation>
    </message>
    <message>
        <source>{path}: attached files that are not PDFs, not attached: {count} (first: {first})</source>
        <translation>{path}：不是 PDF 的附件未附加：{count} 个（第一个：{first}）</translation>
    </message>
    <message>
        <source>{path}: attached files that are not on this computer, not attached: {count} (first: {first})</source>
        <translation>{path}：不在这台电脑上的附件未附加：{count} 个（第一个：{first}）</translation>
    </message>
    <message>
        <source>{path}: standalone {what} (not under any item) are no papers, not imported: {count}</source>
        <translation>{path}：独立的{what}（不属于任何条目）不是论文，未导入：{count} 个</translation>
    </message>
    <message numerus="yes">
        <source>{path}: already in the library, so keeping their own notes and files (Zotero&apos;s were not added): %n papers</source>
        <translation>
            <numerusform>{path}：已在文库中，保留其原有的笔记和文件（未添加 Zotero 的）：%n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>no MEDLINE records (no PMID line)</source>
        <translation>没有 MEDLINE 记录（没有 PMID 行）</translation>
    </message>
    <message>
        <source>not an EndNote XML file: it starts with &lt;{root}&gt;, not &lt;xml&gt;&lt;records&gt;</source>
        <translation>不是 EndNote XML 文件：它以 &lt;{root}&gt; 开头，而不是 &lt;xml&gt;&lt;records&gt;</translation>
    </message>
    <message>
        <source>not well-formed XML: {reason}</source>
        <translation>XML 格式不正确：{reason}</translation>
    </message>
    <message>
        <source>record has no title, author or DOI</source>
        <translation>记录没有标题、作者或 DOI</translation>
    </message>
    <message>
        <source>record {n}</source>
        <translation>第 {n} 条记录</translation>
    </message>
    <message>
        <source>record {n} (rec-number {rec})</source>
        <translation>第 {n} 条记录（rec-number {rec}）</translation>
    </message>
    <message>
        <source>the XML file declares a DOCTYPE, which EndNote never writes; refused (it could declare entities)</source>
        <translation>该 XML 文件声明了 DOCTYPE，EndNote 从不这样写；已拒绝（它可能声明实体）</translation>
    </message>
    <message>
        <source>{path}: JabRef&apos;s dynamic groups are searches, not tags; not imported: {groups}</source>
        <translation>{path}：JabRef 的动态分组是搜索，不是标签；未导入：{groups}</translation>
    </message>
    <message>
        <source>{path}: MEDLINE tags not kept: {tags}</source>
        <translation>{path}：未保留的 MEDLINE 标记：{tags}</translation>
    </message>
    <message>
        <source>{path}: no records found</source>
        <translation>{path}：未找到记录</translation>
    </message>
    <message>
        <source>{path}: {n} entries with JabRef groups or Mendeley tags also have keywords; their keywords are tags too (an export writes a paper&apos;s tags as its keywords)</source>
        <translation>{path}：{n} 个带有 JabRef 分组或 Mendeley 标签的条目也有关键词；这些关键词也成为标签（导出时论文的标签写作其关键词）</translation>
    </message>
    <message>
        <source>{path}: {n} file(s) named in `file` fields are not PDFs on this computer; not attached</source>
        <translation>{path}：`file` 字段中的 {n} 个文件不是这台电脑上的 PDF；未附加</translation>
    </message>
    <message>
        <source>{where}: not a MEDLINE line (TAG- value), ignored: {line}</source>
        <translation>{where}：不是 MEDLINE 行（TAG- 值），已忽略：{line}</translation>
    </message>
    <message>
        <source>{where}: {file} not attached: {why}</source>
        <translation>{where}：{file} 未附加：{why}</translation>
    </message>
    <message>
        <source>{which} has no title, author, DOI or URL; skipped</source>
        <translation>{which} 没有标题、作者、DOI 或 URL；已跳过</translation>
    </message>
    <message numerus="yes">
        <source>Delete %n annotations</source>
        <translation>
            <numerusform>删除 %n 条注释</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Import %n annotations from the PDF</source>
        <translation>
            <numerusform>从 PDF 导入 %n 条注释</numerusform>
        </translation>
    </message>
    <message>
        <source>'{color}' is not a colour (one of {names}, or #rrggbb)</source>
        <translation>“{color}”不是颜色（可用 {names}，或 #rrggbb）</translation>
    </message>
    <message>
        <source>'{kind}' is no kind of annotation (one of {kinds})</source>
        <translation>“{kind}”不是注释的种类（可用 {kinds}）</translation>
    </message>
    <message>
        <source>Add annotation</source>
        <translation>添加注释</translation>
    </message>
    <message>
        <source>Add annotations to notes</source>
        <translation>将注释加入笔记</translation>
    </message>
    <message>
        <source>Edit annotation</source>
        <translation>编辑注释</translation>
    </message>
    <message>
        <source>a comment has at most {longest} characters</source>
        <translation>评论最多 {longest} 个字符</translation>
    </message>
    <message>
        <source>a highlight needs the text it covers</source>
        <translation>高亮需要它覆盖的文字</translation>
    </message>
    <message>
        <source>a highlight needs the text it covers (--quote)</source>
        <translation>高亮需要它覆盖的文字（--quote）</translation>
    </message>
    <message>
        <source>an annotation needs a page</source>
        <translation>注释需要页码</translation>
    </message>
    <message>
        <source>the annotation is {owner}'s: only they can change it</source>
        <translation>此注释属于 {owner}：只有其本人可以更改</translation>
    </message>
    <message>
        <source>the annotation no longer exists</source>
        <translation>此注释已不存在</translation>
    </message>
    <message>
        <source>the paper no longer exists</source>
        <translation>此论文已不存在</translation>
    </message>
    <message>
        <source>the text is not on page {page} of {key}'s PDF: "{quote}"</source>
        <translation>{key} 的 PDF 第 {page} 页上没有这段文字：“{quote}”</translation>
    </message>
    <message>
        <source>{key} has no PDF on this computer</source>
        <translation>{key} 在本机上没有 PDF</translation>
    </message>
    <message>
        <source>{key}'s PDF has no page {page} (it has {pages})</source>
        <translation>{key} 的 PDF 没有第 {page} 页（共 {pages} 页）</translation>
    </message>
    <message numerus="yes">
        <source>Dismiss %n papers</source>
        <translation>
            <numerusform>忽略 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Keep %n papers</source>
        <translation>
            <numerusform>保留 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Unkeep %n papers</source>
        <translation>
            <numerusform>取消保留 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Add %n papers from the inbox</source>
        <translation>
            <numerusform>从收件箱添加 %n 篇论文</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Star %n papers from the inbox</source>
        <translation>
            <numerusform>从收件箱添加并星标 %n 篇论文</numerusform>
        </translation>
    </message>
    <message>
        <source>--json goes with listing the inbox</source>
        <translation>--json 只用于列出收件箱</translation>
    </message>
    <message>
        <source>Follow {spelling}</source>
        <translation>关注 {spelling}</translation>
    </message>
    <message>
        <source>Unfollow {spelling}</source>
        <translation>取消关注 {spelling}</translation>
    </message>
    <message>
        <source>Rename {spelling} to {name}</source>
        <translation>将 {spelling} 重命名为 {name}</translation>
    </message>
    <message>
        <source>Show {spelling} by its address</source>
        <translation>以地址显示 {spelling}</translation>
    </message>
    <message>
        <source>a web page, not a feed: has it moved?</source>
        <translation>这是网页而不是订阅源：它搬家了吗？</translation>
    </message>
    <message>
        <source>arxiv: takes a category (arxiv:cs.LG) or words in quotes (arxiv:"diffusion models"), not {rest}</source>
        <translation>arxiv: 后面应是分类（arxiv:cs.LG）或带引号的词（arxiv:"diffusion models"），而不是 {rest}</translation>
    </message>
    <message>
        <source>close to papers you dismissed</source>
        <translation>与你忽略过的论文相近</translation>
    </message>
    <message numerus="yes">
        <source>like %n starred papers: {titles}</source>
        <translation>
            <numerusform>与 %n 篇加了星标的论文相似：{titles}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>like %n read papers: {titles}</source>
        <translation>
            <numerusform>与 %n 篇读过的论文相似：{titles}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>like %n tagged papers: {titles}</source>
        <translation>
            <numerusform>与 %n 篇加了标签的论文相似：{titles}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>like %n papers tagged {tag}: {titles}</source>
        <translation>
            <numerusform>与 %n 篇带有标签{tag}的论文相似：{titles}</numerusform>
        </translation>
    </message>
    <message>
        <source>name the inbox items (their ids)</source>
        <translation>请指定收件箱条目（它们的编号）</translation>
    </message>
    <message>
        <source>name the inbox items to {action} (their ids, from `inbox`)</source>
        <translation>请指定要{action}的收件箱条目（编号见 `inbox`）</translation>
    </message>
    <message>
        <source>no entry has a title</source>
        <translation>没有条目带标题</translation>
    </message>
    <message>
        <source>no item {ids} in your inbox</source>
        <translation>你的收件箱中没有条目 {ids}</translation>
    </message>
    <message>
        <source>not a source to follow: {spelling} (arxiv:cs.LG, arxiv:"query words", a feed's https:// address, issn:1234-5678, openalex:A5023888391)</source>
        <translation>不是可关注的来源：{spelling}（arxiv:cs.LG、arxiv:"查询词"、订阅源的 https:// 地址、issn:1234-5678、openalex:A5023888391）</translation>
    </message>
    <message>
        <source>not an ISSN: {rest} (issn:1234-5678)</source>
        <translation>不是 ISSN：{rest}（issn:1234-5678）</translation>
    </message>
    <message>
        <source>not an OpenAlex author id: {rest} (openalex:A5023888391)</source>
        <translation>不是 OpenAlex 作者编号：{rest}（openalex:A5023888391）</translation>
    </message>
    <message>
        <source>not an RSS or Atom feed</source>
        <translation>不是 RSS 或 Atom 订阅源</translation>
    </message>
    <message>
        <source>not well-formed XML: {error}</source>
        <translation>XML 格式不正确：{error}</translation>
    </message>
    <message>
        <source>nothing in your library like it yet</source>
        <translation>你的文献库中还没有与之相似的论文</translation>
    </message>
    <message>
        <source>refused: the feed declares entities or refers to outside documents</source>
        <translation>已拒绝：该订阅源声明了实体或引用外部文档</translation>
    </message>
    <message>
        <source>say what to do with the items: inbox add|star|dismiss|keep|unkeep ID...</source>
        <translation>请说明如何处理这些条目：inbox add|star|dismiss|keep|unkeep 编号...</translation>
    </message>
    <message>
        <source>shares an author with {title}</source>
        <translation>与{title}有共同作者</translation>
    </message>
    <message>
        <source>the source is no longer followed</source>
        <translation>已不再关注该来源</translation>
    </message>
    <message>
        <source>unreadable answer ({error})</source>
        <translation>无法读取的应答（{error}）</translation>
    </message>
    <message>
        <source>you follow no source {spelling}</source>
        <translation>你没有关注来源 {spelling}</translation>
    </message>
    <message>
        <source>you follow no source: `follow add SOURCE` ({spellings})</source>
        <translation>你还没有关注任何来源：`follow add 来源`（{spellings}）</translation>
    </message>
    <message>
        <source>you follow {spelling} already</source>
        <translation>你已经关注了 {spelling}</translation>
    </message>
    <message numerus="yes">
        <source>%n entries without a title skipped</source>
        <translation>
            <numerusform>跳过了 %n 个没有标题的条目</numerusform>
        </translation>
    </message>
    <message>
        <source>{n} entries: the newest {kept} kept</source>
        <translation>{n} 个条目：保留最新的 {kept} 个</translation>
    </message>
    <message numerus="yes">
        <source>%n repeated entries dropped</source>
        <translation>
            <numerusform>丢弃了 %n 个重复条目</numerusform>
        </translation>
    </message>
    <message>
        <source>annotations</source>
        <translation>注释</translation>
    </message>
    <message>
        <source>with annotations</source>
        <translation>有注释</translation>
    </message>
    <message>
        <source>{path}: not a Retraction Watch CSV (no column {columns})</source>
        <translation>{path}：不是 Retraction Watch 的 CSV 文件（缺少列 {columns}）</translation>
    </message>
    <message>
        <source>{path}: larger than {limit} MB, more than any Retraction Watch CSV; not read</source>
        <translation>{path}：大于 {limit} MB，超过任何 Retraction Watch CSV 文件；未读取</translation>
    </message>
    <message>
        <source>{path}: more than {n} lines, more than any Retraction Watch CSV; not read</source>
        <translation>{path}：超过 {n} 行，超过任何 Retraction Watch CSV 文件；未读取</translation>
    </message>
    <message>
        <source>{path}, line {line}: longer than {n} characters; row skipped</source>
        <translation>{path}，第 {line} 行：超过 {n} 个字符；已跳过该行</translation>
    </message>
    <message>
        <source>{path}, line {line}: {error}; row skipped</source>
        <translation>{path}，第 {line} 行：{error}；已跳过该行</translation>
    </message>
    <message>
        <source>{path}, line {line}: {problem}; row skipped</source>
        <translation>{path}，第 {line} 行：{problem}；已跳过该行</translation>
    </message>
    <message>
        <source>{path}: cannot be read ({error})</source>
        <translation>{path}：无法读取（{error}）</translation>
    </message>
    <message>
        <source>more cells than the header has</source>
        <translation>单元格比表头多</translation>
    </message>
    <message>
        <source>unknown RetractionNature '{value}'</source>
        <translation>未知的 RetractionNature“{value}”</translation>
    </message>
    <message>
        <source>no OriginalPaperDOI or OriginalPaperPubMedID</source>
        <translation>没有 OriginalPaperDOI 或 OriginalPaperPubMedID</translation>
    </message>
    <message>
        <source>notice {doi}</source>
        <translation>声明 {doi}</translation>
    </message>
    <message>
        <source>Retracted: {title} ({details})</source>
        <translation>已撤稿：{title}（{details}）</translation>
    </message>
    <message>
        <source>Retracted: {title}</source>
        <translation>已撤稿：{title}</translation>
    </message>
    <message>
        <source>retracted</source>
        <translation>已撤稿</translation>
    </message>
    <message>
        <source>corrected</source>
        <translation>有更正</translation>
    </message>
    <message numerus="yes">
        <source>{path}: %n more rows skipped</source>
        <translation>
            <numerusform>{path}：另有 %n 行被跳过</numerusform>
        </translation>
    </message>
    <message>
        <source>not a source to follow: {spelling} (arxiv:cs.LG, arxiv:"query words", a feed's https:// address, issn:1234-5678, openalex:A5023888391, s2author:1741101, dblp:h/GeoffreyEHinton, openalex:"query words", crossref:"query words")</source>
        <translation>不是可关注的来源：{spelling}（arxiv:cs.LG、arxiv:"查询词"、订阅源的 https:// 地址、issn:1234-5678、openalex:A5023888391、s2author:1741101、dblp:h/GeoffreyEHinton、openalex:"查询词"、crossref:"查询词"）</translation>
    </message>
    <message>
        <source>{service}: takes words in quotes ({service}:"diffusion models"), not {rest}</source>
        <translation>{service}: 需要加引号的检索词（{service}:"diffusion models"），而不是 {rest}</translation>
    </message>
    <message>
        <source>crossref: takes words in quotes (crossref:"diffusion models"), not {rest}</source>
        <translation>crossref: 需要加引号的检索词（crossref:"diffusion models"），而不是 {rest}</translation>
    </message>
    <message>
        <source>--json and --tag go with listing the inbox</source>
        <translation>--json 和 --tag 只用于列出收件箱</translation>
    </message>
    <message>
        <source>--min is a count of papers: 1 or more</source>
        <translation>--min 是论文篇数：1 或更多</translation>
    </message>
    <message>
        <source>has no reference list for {doi}</source>
        <translation>没有 {doi} 的参考文献列表</translation>
    </message>
    <message>
        <source>holds no arXiv paper's references</source>
        <translation>没有 arXiv 论文的参考文献</translation>
    </message>
    <message>
        <source>knows papers by DOI only</source>
        <translation>只按 DOI 识别论文</translation>
    </message>
    <message>
        <source>lists no papers citing a work</source>
        <translation>不列出引用某论文的论文</translation>
    </message>
    <message>
        <source>no paper is cited by {k} or more of them that your library lacks</source>
        <translation>没有被其中 {k} 篇或更多论文引用、而文献库中没有的论文</translation>
    </message>
    <message>
        <source>no paper {key} in the library (and not a DOI or arXiv id)</source>
        <translation>文献库中没有论文 {key}（它也不是 DOI 或 arXiv 编号）</translation>
    </message>
    <message>
        <source>no service gave the {what} of {key}</source>
        <translation>没有服务给出 {key} 的 {what}</translation>
    </message>
    <message>
        <source>no tag {tag} in the library</source>
        <translation>文献库中没有标签 {tag}</translation>
    </message>
    <message>
        <source>not a DBLP author pid: {rest} (dblp:h/GeoffreyEHinton, dblp:66/5765)</source>
        <translation>不是 DBLP 作者 pid：{rest}（dblp:h/GeoffreyEHinton、dblp:66/5765）</translation>
    </message>
    <message>
        <source>not a Semantic Scholar author id: {rest} (s2author:1741101)</source>
        <translation>不是 Semantic Scholar 作者编号：{rest}（s2author:1741101）</translation>
    </message>
    <message>
        <source>{key} has no DOI or arXiv id: nothing to ask the services about</source>
        <translation>{key} 没有 DOI 或 arXiv 编号：无法向服务查询</translation>
    </message>
    <message>
        <source>{paper}: no service gave its references</source>
        <translation>{paper}：没有服务给出它的参考文献</translation>
    </message>
    <message>
        <source>{service}: unreadable answer ({error})</source>
        <translation>{service}：无法读取的应答（{error}）</translation>
    </message>
    <message>
        <source>{name}: this PDF could not be read ({why})</source>
        <translation>{name}：无法读取此 PDF（{why}）</translation>
    </message>
    <message>
        <source>no worker process can be started here</source>
        <translation>此处无法启动工作进程</translation>
    </message>
    <message>
        <source>it took longer than {seconds} s</source>
        <translation>用时超过 {seconds} 秒</translation>
    </message>
    <message>
        <source>it needs more than {gb} GB of memory</source>
        <translation>它需要超过 {gb} GB 内存</translation>
    </message>
    <message>
        <source>it is damaged: {error}</source>
        <translation>文件已损坏：{error}</translation>
    </message>
    <message>
        <source>its reader was killed</source>
        <translation>读取进程被终止</translation>
    </message>
    <message>
        <source>it crashed the reader: {signal}</source>
        <translation>它使读取进程崩溃：{signal}</translation>
    </message>
    <message>
        <source>its reader stopped</source>
        <translation>读取进程已停止</translation>
    </message>
    <message>
        <source>{problem}</source>
        <translation>{problem}</translation>
    </message>
    <message>
        <source>last read</source>
        <translation>上次阅读时间</translation>
    </message>
    <message>
        <source>{name}: {size} MB, over the shared library's limit of {limit} MB for one file; not uploaded</source>
        <translation>{name}：{size} MB，超过共享文献库单个文件 {limit} MB 的上限；未上传</translation>
    </message>
    <message>
        <source>{name}: cannot be read ({problem}); not uploaded</source>
        <translation>{name}：无法读取（{problem}）；未上传</translation>
    </message>
    <message>
        <source>{sha256} is not the SHA-256 of a file</source>
        <translation>{sha256} 不是文件的 SHA-256</translation>
    </message>
    <message>
        <source>the shared library does not keep this file ({sha256}); a member who has it can send it with `papershelf upload-files`</source>
        <translation>共享文献库中没有这个文件（{sha256}）；有这个文件的成员可以用 `papershelf upload-files` 发送</translation>
    </message>
    <message>
        <source>the file {sha256} came from the shared library damaged; nothing was kept</source>
        <translation>从共享文献库取得的文件 {sha256} 已损坏；未保留任何内容</translation>
    </message>
    <message>
        <source>the cache {folder} cannot be written ({problem})</source>
        <translation>无法写入缓存 {folder}（{problem}）</translation>
    </message>
    <message>
        <source>{limit} bytes: not a limit of one file</source>
        <translation>{limit} 字节：不是有效的单个文件上限</translation>
    </message>
    <message>
        <source>only the shared library's owner sets its limit of one file; ask them</source>
        <translation>只有共享文献库的所有者才能设置单个文件的上限；请联系所有者</translation>
    </message>
    <message>
        <source>{name}: the shared library refused it ({reason}); not uploaded</source>
        <translation>{name}：共享文献库拒绝了它（{reason}）；未上传</translation>
    </message>
</context>
</TS>
