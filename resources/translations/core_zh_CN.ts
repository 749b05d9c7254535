<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<!-- Messages the core makes (papershelf.core.messages: undo steps, ...), kept by hand:
     lupdate does not read the core. Context "Core"; %n is a count. -->
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Core</name>
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
</context>
</TS>
