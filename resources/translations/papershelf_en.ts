<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name></name>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/autoexport.py" line="+408"/>
        <source>%n cited keys not in the library: {keys}</source>
        <translation>
            <numerusform>%n cited key not in the library: {keys}</numerusform>
            <numerusform>%n cited keys not in the library: {keys}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/features/feeds.py" line="+137"/>
        <source>%n papers in the inbox</source>
        <translation>
            <numerusform>%n paper in the inbox</numerusform>
            <numerusform>%n papers in the inbox</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+206"/>
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
</context>
<context>
    <name>DetailPane</name>
    <message numerus="yes">
        <location filename="../../desktop/papershelf/gui/detail.py" line="+248"/>
        <source>%n papers selected</source>
        <translation>
            <numerusform>%n paper selected</numerusform>
            <numerusform>%n papers selected</numerusform>
        </translation>
    </message>
</context>
</TS>
