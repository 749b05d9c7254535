<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name></name>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+417"/>
        <source>%n cited keys not in the library: {keys}</source>
        <translation>
            <numerusform>%n cited key not in the library: {keys}</numerusform>
            <numerusform>%n cited keys not in the library: {keys}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/feeds.py" line="+185"/>
        <source>%n papers in the inbox</source>
        <translation>
            <numerusform>%n paper in the inbox</numerusform>
            <numerusform>%n papers in the inbox</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+266"/>
        <source>Checked %n sources</source>
        <translation>
            <numerusform>Checked %n source</numerusform>
            <numerusform>Checked %n sources</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n new papers</source>
        <translation>
            <numerusform>%n new paper</numerusform>
            <numerusform>%n new papers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/annotations.py" line="+122"/>
        <source>Wrote {path}: {key}&apos;s PDF with %n annotations</source>
        <translation>
            <numerusform>Wrote {path}: {key}&apos;s PDF with %n annotation</numerusform>
            <numerusform>Wrote {path}: {key}&apos;s PDF with %n annotations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/pdfs.py" line="+188"/>
        <source>Sent %n PDFs to the shared library: every member can open them</source>
        <translation>
            <numerusform>Sent %n PDF to the shared library: every member can open it</numerusform>
            <numerusform>Sent %n PDFs to the shared library: every member can open them</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>AnnotationBox</name>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/annotation_box.py" line="+185"/>
        <source>and %n more (the reader lists them all)</source>
        <translation>
            <numerusform>and %n more (the reader lists them all)</numerusform>
            <numerusform>and %n more (the reader lists them all)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/detail.py" line="+260"/>
        <source>%n papers selected</source>
        <translation>
            <numerusform>%n paper selected</numerusform>
            <numerusform>%n papers selected</numerusform>
        </translation>
    </message>
</context>
</TS>
