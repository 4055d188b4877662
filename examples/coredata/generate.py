#!/usr/bin/env python3
"""Builds a Core Data model bundle and SQLite stores laid out as Core Data lays them out,
with planted violations of every constraint kind and their exact counts.

    python3 examples/coredata/generate.py OUTDIR

Writes OUTDIR/Shop.xcdatamodeld (two versions, the current one named by .xccurrentversion),
OUTDIR/de.lproj/ShopModel.strings (a localization), OUTDIR/Shop.sqlite (today's store),
OUTDIR/Shop-previous.sqlite (yesterday's store, for the Deny rule) and OUTDIR/expected.json
(rule id -> number of violating records).

Store layout written here (and read by `auditor import coredata`), the one of Core Data's
NSSQLiteStoreType:
- entities are numbered 1..n in the order of their names; Z_PRIMARYKEY(Z_ENT, Z_NAME,
  Z_SUPER, Z_MAX) lists them, Z_SUPER being the parent's number (0 for a root);
- a root entity and all its subentities share one table Z<ROOT> (upper case) with the
  columns Z_PK (the object's primary key), Z_ENT (the row's entity number), Z_OPT (the
  optimistic-locking version), then Z<ATTRIBUTE> for every stored attribute of the hierarchy
  and Z<RELATIONSHIP> for every to-one relationship (the destination's Z_PK);
- a many-to-many relationship is a join table Z_<n><RELATIONSHIP>, n being the number of the
  entity that declares it (the one whose entity then relationship name sorts first), with
  the columns Z_<n><INVERSE> (that entity's Z_PK) and Z_<m><RELATIONSHIP> (the destination's
  Z_PK, m the destination's number);
- dates are REAL seconds since 2001-01-01T00:00:00Z, Booleans INTEGER 0/1, UUIDs 16-byte BLOBs;
- Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST) holds a binary property list with NSStoreType,
  NSStoreUUID, NSStoreModelVersionIdentifiers and NSStoreModelVersionHashes (one entry per entity).
"""
import datetime
import json
import os
import plistlib
import sqlite3
import sys
import uuid

EPOCH = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)


def interval(y, m, d):
    return (datetime.datetime(y, m, d, tzinfo=datetime.timezone.utc) - EPOCH).total_seconds()


MIN_BORN = interval(1900, 1, 1)
MAX_BORN = interval(2030, 1, 1)


def model_xml(version):
    """The `contents` file of one model version, as Xcode writes it."""
    points = ('        <attribute name="points" optional="YES" attributeType="Integer 16" '
              'defaultValueString="0" usesScalarValueType="YES"/>\n') if version == 2 else ""
    return f'''<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23B81" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="{version}">
    <entity name="Customer" representedClassName="Customer" parentEntity="Party" syncable="YES" codeGenerationType="class">
{points}        <attribute name="website" optional="YES" attributeType="URI"/>
    </entity>
    <entity name="Department" representedClassName="Department" syncable="YES" codeGenerationType="class">
        <attribute name="budget" optional="YES" attributeType="Double" minValueString="0" defaultValueString="0.0" usesScalarValueType="YES"/>
        <attribute name="title" attributeType="String" minValueString="2" maxValueString="30"/>
        <relationship name="employees" minCount="1" maxCount="3" toMany="YES" deletionRule="Deny" ordered="YES" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
        <uniquenessConstraints>
            <uniquenessConstraint>
                <constraint value="title"/>
            </uniquenessConstraint>
        </uniquenessConstraints>
    </entity>
    <entity name="Employee" representedClassName="Employee" parentEntity="Party" syncable="YES" codeGenerationType="class">
        <attribute name="salary" optional="YES" attributeType="Decimal" minValueString="0" defaultValueString="0.0"/>
        <relationship name="department" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
    </entity>
    <entity name="Party" representedClassName="Party" isAbstract="YES" syncable="YES" codeGenerationType="class">
        <attribute name="active" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
        <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" defaultValueString="0" usesScalarValueType="YES"/>
        <attribute name="avatar" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
        <attribute name="born" optional="YES" attributeType="Date" minDateTimeInterval="{MIN_BORN:.0f}" maxDateTimeInterval="{MAX_BORN:.0f}" usesScalarValueType="NO"/>
        <attribute name="email" optional="YES" attributeType="String" regularExpressionString="[^@ ]+@[^@ ]+"/>
        <attribute name="initials" optional="YES" attributeType="String" derived="YES" derivationExpression="uppercase:(name)"/>
        <attribute name="name" attributeType="String" minValueString="3" maxValueString="20" regularExpressionString="[A-Z][a-z]+"/>
        <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
        <attribute name="token" optional="YES" attributeType="UUID" usesScalarValueType="NO"/>
        <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="parties" inverseEntity="Tag"/>
        <fetchedProperty name="namesakes" optional="YES">
            <fetchRequest name="fetchedPropertyFetchRequest" entity="Party" predicateString="name == $FETCH_SOURCE.name"/>
        </fetchedProperty>
        <uniquenessConstraints>
            <uniquenessConstraint>
                <constraint value="email"/>
            </uniquenessConstraint>
            <uniquenessConstraint>
                <constraint value="name"/>
                <constraint value="born"/>
            </uniquenessConstraint>
        </uniquenessConstraints>
    </entity>
    <entity name="Tag" representedClassName="Tag" syncable="YES" codeGenerationType="class">
        <attribute name="label" attributeType="String" minValueString="1"/>
        <relationship name="parties" optional="YES" toMany="YES" maxCount="2" deletionRule="Deny" destinationEntity="Party" inverseName="tags" inverseEntity="Party"/>
    </entity>
    <fetchRequest name="Adults" entity="Party" predicateString="age &gt;= 18 AND active == YES"/>
    <fetchRequest name="Modern" entity="Party" predicateString="born &gt; CAST(-3187296000, &quot;NSDate&quot;) OR born == nil"/>
    <fetchRequest name="Tagged" entity="Tag" predicateString="ANY parties.name BEGINSWITH[c] &quot;a&quot;"/>
</model>
'''


STRINGS = '''/* Localized names of entities and properties (Xcode's <Model>Model.strings). */
"Entity/Party" = "Partner";
"Entity/Employee" = "Mitarbeiter";
"Property/name/Entity/Party" = "Name";
"Property/salary/Entity/Employee" = "Gehalt";
"ErrorString/Name too short" = "Der Name ist zu kurz";
'''

# Entity numbers: 1..n in the order of the names.
ENTITIES = ["Customer", "Department", "Employee", "Party", "Tag"]
ENT = {name: i + 1 for i, name in enumerate(ENTITIES)}
SUPER = {"Customer": "Party", "Employee": "Party"}


def uuid_blob(n):
    return uuid.UUID(int=n * 0x1000000000001).bytes


def write_model(out):
    bundle = os.path.join(out, "Shop.xcdatamodeld")
    for version, folder in ((1, "Shop.xcdatamodel"), (2, "Shop 2.xcdatamodel")):
        os.makedirs(os.path.join(bundle, folder), exist_ok=True)
        with open(os.path.join(bundle, folder, "contents"), "w", encoding="utf-8") as f:
            f.write(model_xml(version))
    with open(os.path.join(bundle, ".xccurrentversion"), "w", encoding="utf-8") as f:
        f.write('''<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>_XCCurrentVersionName</key>
	<string>Shop 2.xcdatamodel</string>
</dict>
</plist>
''')
    os.makedirs(os.path.join(out, "de.lproj"), exist_ok=True)
    with open(os.path.join(out, "de.lproj", "ShopModel.strings"), "w", encoding="utf-8") as f:
        f.write(STRINGS)


def create_store(path, parties, departments, tags, links):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript('''
        CREATE TABLE ZPARTY ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
            ZACTIVE INTEGER, ZAGE INTEGER, ZPOINTS INTEGER, ZDEPARTMENT INTEGER,
            ZBORN TIMESTAMP, ZSALARY DECIMAL, ZEMAIL VARCHAR, ZINITIALS VARCHAR, ZNAME VARCHAR,
            ZWEBSITE VARCHAR, ZAVATAR BLOB, ZTOKEN BLOB, Z_FOK_DEPARTMENT INTEGER );
        CREATE TABLE ZDEPARTMENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
            ZBUDGET FLOAT, ZTITLE VARCHAR );
        CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR );
        CREATE TABLE Z_4TAGS ( Z_4PARTIES INTEGER, Z_5TAGS INTEGER, PRIMARY KEY (Z_4PARTIES, Z_5TAGS) );
        CREATE INDEX ZPARTY_ZDEPARTMENT_INDEX ON ZPARTY (ZDEPARTMENT);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
    ''')
    cols = ["Z_PK", "Z_ENT", "Z_OPT", "ZACTIVE", "ZAGE", "ZPOINTS", "ZDEPARTMENT", "ZBORN", "ZSALARY",
            "ZEMAIL", "ZINITIALS", "ZNAME", "ZWEBSITE", "ZAVATAR", "ZTOKEN", "Z_FOK_DEPARTMENT"]
    for p in parties:
        row = [p.get(c) for c in cols]
        db.execute(f"INSERT INTO ZPARTY ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", row)
    for d in departments:
        db.execute("INSERT INTO ZDEPARTMENT VALUES (?, ?, 1, ?, ?)", (d[0], ENT["Department"], d[1], d[2]))
    for t in tags:
        db.execute("INSERT INTO ZTAG VALUES (?, ?, 1, ?)", (t[0], ENT["Tag"], t[1]))
    for link in links:
        db.execute("INSERT INTO Z_4TAGS VALUES (?, ?)", link)
    maxima = {"Party": max([p["Z_PK"] for p in parties] or [0]), "Department": max([d[0] for d in departments] or [0]),
              "Tag": max([t[0] for t in tags] or [0])}
    for name in ENTITIES:
        root = SUPER.get(name, name)
        db.execute("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, ?)",
                   (ENT[name], name, ENT[SUPER[name]] if name in SUPER else 0, maxima.get(name, 0) if name == root else 0))
    store_uuid = str(uuid.UUID(int=0xC0DEDA7A))
    metadata = {
        "NSStoreType": "SQLite",
        "NSStoreUUID": store_uuid,
        "NSStoreModelVersionIdentifiers": ["2"],
        "NSStoreModelVersionHashes": {name: bytes(range(ENT[name], ENT[name] + 32)) for name in ENTITIES},
        "NSStoreModelVersionHashesVersion": 3,
        "NSPersistenceFrameworkVersion": 1341,
    }
    db.execute("INSERT INTO Z_METADATA VALUES (1, ?, ?)", (store_uuid, plistlib.dumps(metadata, fmt=plistlib.FMT_BINARY)))
    db.commit()
    db.close()


def party(pk, ent, name, **kw):
    row = {"Z_PK": pk, "Z_ENT": ENT[ent], "Z_OPT": 1, "ZNAME": name, "ZACTIVE": 1,
           "ZAGE": 30, "ZBORN": interval(1985, 6, 15) + pk, "ZEMAIL": f"p{pk}@shop.example",
           "ZTOKEN": uuid_blob(pk), "ZAVATAR": b"\x00\x01"}
    if ent == "Employee":
        row.update({"ZSALARY": 1000 + pk, "ZDEPARTMENT": 1 if pk <= 4 else 2, "Z_FOK_DEPARTMENT": pk})
    row.update(kw)
    return row


def main(out):
    os.makedirs(out, exist_ok=True)
    write_model(out)
    parties = [
        # Employees 1-4 in department 1 (maxCount 3: one violation), 5-6 in department 2.
        party(1, "Employee", "Ann"),
        party(2, "Employee", "Bob", ZBORN=interval(2010, 3, 1)),           # after 2001: valid
        party(3, "Employee", "Cyd", ZSALARY=-5),                            # 1620 salary
        party(4, "Employee", "Dan", ZAGE=200),                              # 1610 age
        party(5, "Employee", "Eve", ZDEPARTMENT=None),                      # 1570 department
        party(6, "Employee", "Fay", ZDEPARTMENT=99),                        # 133000 department
        party(7, "Employee", "Gus", ZDEPARTMENT=4),                         # 133000 + 1600 (deleted, Deny)
        party(8, "Employee", "Hal", ZDEPARTMENT=2),
        party(20, "Customer", None),                                        # 1570 name
        party(21, "Customer", "Al"),                                        # 1670 name
        party(22, "Customer", "Abcdefghijklmnopqrstuvwxyz"),                # 1660 name
        party(23, "Customer", "bob"),                                       # 1680 name
        party(24, "Customer", "Ivy", ZAGE=-1),                              # 1620 age
        party(25, "Customer", "Jon", ZBORN=interval(1899, 12, 31)),         # 1640 born
        party(26, "Customer", "Kim", ZBORN=interval(2031, 1, 1)),           # 1630 born
        party(27, "Customer", "Lea", ZEMAIL="p1@shop.example"),             # 1551 email
        party(28, "Customer", "Ann", ZBORN=interval(1985, 6, 15) + 1),      # 1551 name+born (= Party 1)
        party(29, "Customer", "Max", ZEMAIL="nobody"),                      # 1680 email
        party(30, "Customer", "Ned", ZACTIVE=2),                            # 2001 active
        party(31, "Customer", "Oli", ZTOKEN=b"\xab\xcd\xef"),               # 2001 token
        party(32, "Customer", "Pam", ZPOINTS=40000),                        # 1610 points (Integer 16)
        party(33, "Customer", "Quy", ZBORN=interval(1950, 2, 2), ZWEBSITE="https://quy.example/"),
        party(34, "Party", "Ray"),                                          # 133000: abstract entity
    ]
    departments = [(1, 500.0, "Sales"), (2, 100.0, "Support"), (3, -1.0, "Sales")]
    # department 3: no employees (1580), budget -1 (1620), title duplicate (1551)
    tags = [(1, "vip"), (2, "new"), (3, None)]                              # tag 3: 1570 label
    links = [(1, 1), (2, 1), (20, 1), (2, 2), (99, 2)]                      # tag 1: 3 parties (1590); 99: 133000
    create_store(os.path.join(out, "Shop.sqlite"), parties, departments, tags, links)
    previous = [p for p in parties]
    create_store(os.path.join(out, "Shop-previous.sqlite"), previous,
                 departments + [(4, 10.0, "Legal")], tags, links)
    expected = {
        "party.name.required": 1, "party.name.minLength": 1, "party.name.maxLength": 1,
        "party.name.pattern": 1, "party.age.max": 1, "party.age.min": 1,
        "party.born.min": 1, "party.born.max": 1, "party.email.unique": 1,
        "party.name+born.unique": 1, "party.email.pattern": 1, "party.active.type": 1,
        "party.token.pattern": 1, "party.entity.concrete": 1,
        "customer.points.max": 1,
        "employee.salary.min": 1, "employee.department.required": 1, "employee.department.fk": 2,
        "department.employees.maxCount": 1, "department.employees.minCount": 1,
        "department.budget.min": 1, "department.title.unique": 1,
        "tag.label.required": 1, "tag.parties.maxCount": 1, "party_tags.party.fk": 1,
        "department.employees.deleteRule": 1,
        # fetch requests, as info rules: the records they do not match
        "party.fetch.Adults": 1, "party.fetch.Modern": 1,
    }
    with open(os.path.join(out, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
